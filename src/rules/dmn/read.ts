// Reading DMN XML into the typed model. dmn-moddle parses (its fromXML answers a promise), so reading is async:
// a DMN file is read once, where it is imported, and its typed model (plain JSON) is what is kept and compiled
// (docs/decisions/dmn-model.md).
import { DmnModdle } from 'dmn-moddle';
import type { Problem } from '../problems.ts';
import { DmnConverter } from './convert.ts';
import type { DmnModel } from './model.ts';
import { DMN15_PACKAGES, EARLIER_NAMESPACES } from './moddle-package.ts';

export interface DmnReadResult {
  /** Absent when the XML is not a DMN model at all. */
  model?: DmnModel;
  /** Everything malformed or unsupported, each with the path of its element; empty when the model is sound. */
  problems: Problem[];
}

const moddle = DmnModdle(DMN15_PACKAGES);

/** Rewrites the namespaces of DMN 1.1 to 1.4 to DMN 1.5's, which is a superset of them. */
function asDmn15(xml: string): string {
  return xml.replace(/(["'])(https?:\/\/www\.omg\.org\/spec\/DMN\/\d{8}\/(?:MODEL\/|DMNDI\/|dmn\.xsd))\1/g, (whole, quote: string, uri: string) =>
    EARLIER_NAMESPACES[uri] ? `${quote}${EARLIER_NAMESPACES[uri]}${quote}` : whole,
  );
}

/** Problems worth reporting among the parser's warnings: those about DMN elements, not vendor extensions. */
function parserProblems(warnings: { message: string }[]): Problem[] {
  return warnings
    .map((warning) => warning.message.split('\n')[0])
    .filter((message) => !/unknown attribute|unresolved reference|unparsable content <[a-z]+:/i.test(message))
    .map((message) => ({ path: 'definitions', message }));
}

export async function readDmn(xml: string): Promise<DmnReadResult> {
  let parsed;
  try {
    parsed = await moddle.fromXML(asDmn15(xml), 'dmn:Definitions');
  } catch (error) {
    const detail = (error as { warnings?: { message: string }[] }).warnings?.[0]?.message.split('\n')[0];
    return { problems: [{ path: '', message: `not a DMN 1.1-1.5 model: ${detail ?? (error as Error).message}` }] };
  }
  const converter = new DmnConverter();
  const model = converter.definitions(parsed.rootElement);
  return { model, problems: [...parserProblems(parsed.warnings), ...converter.problems] };
}
