// dmn-moddle ships no type declarations; this names the little of it Verdict uses (src/rules/dmn/read.ts).
declare module 'dmn-moddle' {
  export interface ModdleElement {
    $type: string;
    [property: string]: unknown;
  }
  export interface ParseResult {
    rootElement: ModdleElement;
    warnings: { message: string }[];
  }
  export interface Moddle {
    fromXML(xml: string, typeName?: string): Promise<ParseResult>;
  }
  export function DmnModdle(packages?: Record<string, unknown>, options?: Record<string, unknown>): Moddle;
}
