// What a tool answers: compact JSON text for a result, and a tool error (isError) that names the problem and its
// path for a failure. A failure the caller could not have caused is logged in full and answered without details,
// so no internal message or stack reaches the assistant.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError } from '../rules/problems.ts';
import { classify } from '../service/errors.ts';
import type { ServiceLogger } from '../service/index.ts';

/** Results above this many characters are cut (with a note saying how to page), to fit a model's context. */
export const MAX_RESULT_CHARS = 60_000;

export function ok(value: unknown): CallToolResult {
  const text = JSON.stringify(value);
  if (text.length <= MAX_RESULT_CHARS) return { content: [{ type: 'text', text }] };
  return {
    content: [
      {
        type: 'text',
        text: `${text.slice(0, MAX_RESULT_CHARS)}\n[cut at ${MAX_RESULT_CHARS} of ${text.length} characters: ask for less, e.g. a page of rows (rowsFrom, rowsLimit) or one version]`,
      },
    ],
  };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A failure as a tool error: rule problems with their paths, service errors with their message. */
export function failure(err: unknown, log: ServiceLogger, tool: string): CallToolResult {
  if (err instanceof ValidationError) {
    const lines = err.problems.map((p) => `- ${p.path ? `${p.path}: ` : ''}${p.message}`);
    return toolError(`${err.problems.length === 1 ? 'One problem' : `${err.problems.length} problems`}; nothing was changed:\n${lines.join('\n')}`);
  }
  const known = classify(err);
  if (known !== undefined) {
    const problems = known.problems?.map((p) => `\n- ${p.path ? `${p.path}: ` : ''}${p.message}`).join('') ?? '';
    return toolError(`${known.message}${problems}`);
  }
  const id = randomUUID();
  log.error({ err, tool, errorId: id }, 'mcp tool failed');
  return toolError(`The tool ${tool} failed inside Verdict (error id ${id}, in the server log); nothing was changed by this call.`);
}
