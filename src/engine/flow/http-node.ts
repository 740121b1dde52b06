// The HTTP_CLIENT node (spec/rule-format.md §8.2): one request through the injected, allowlisted HttpClient,
// with `{path}` references filled in from the flow's variables.
import { RuleError, TimeoutError } from '../errors.ts';
import { pinInstant } from '../context.ts';
import type { HttpRequest } from '../types.ts';
import { textOf } from '../values.ts';
import { FlowScope, flowPath } from './flow-scope.ts';
import type { FlowNodeOf } from './workflow-graph.ts';
import { NO_REFS, listOf, nodeKey, textField } from './node-helpers.ts';
import type { NodeCompileContext, NodeExecutor } from './node-executor.ts';

const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export function compileHttpNode(node: FlowNodeOf<'HTTP_CLIENT'>, cc: NodeCompileContext): NodeExecutor {
  const where = `${node.path}.data`;
  const method = String(node.data.method ?? 'GET').trim().toUpperCase();
  if (!HTTP_METHODS.has(method)) cc.problems.push({ path: `${where}.method`, message: `${JSON.stringify(node.data.method)} is not an HTTP method (GET, POST, PUT, PATCH or DELETE)` });
  const url = typeof node.data.url === 'string' ? node.data.url : '';
  const bodyText = typeof node.data.body === 'string' ? node.data.body : node.data.body === undefined || node.data.body === null ? '' : JSON.stringify(node.data.body);
  const bodyFormat = typeof node.data.bodyFormat === 'string' ? node.data.bodyFormat.toLowerCase() : 'json';
  const headers = listOf(node.data.headers).flatMap((entry) => {
    const name = textField(entry.header);
    return name === undefined ? [] : [{ name: name.trim(), value: typeof entry.value === 'string' ? entry.value : textOf(entry.value) }];
  });
  const slot = cc.layout.slotOf(nodeKey(node));
  // Its `{path}` references are read at run time, and one may name the whole scope.
  cc.layout.readsWhole();
  return {
    ruleRefs: NO_REFS,
    run: async (scope, ctx) => {
      if (!ctx.http) throw new RuleError('HTTP is disabled');
      // The request waits: the solve's instant is taken before (SolveInstant).
      pinInstant(ctx);
      const request: HttpRequest = { method: method as HttpRequest['method'], url: interpolateText(url, scope), headers: {} };
      for (const header of headers) request.headers![header.name] = interpolateText(header.value, scope);
      if (method !== 'GET' && method !== 'DELETE' && bodyText.trim() !== '') {
        if (bodyFormat === 'json') {
          const json = interpolateJson(bodyText, scope);
          try {
            request.body = JSON.parse(json) as unknown;
          } catch (error) {
            throw new RuleError(`the request body is not valid JSON after filling in its variables: ${(error as Error).message}`);
          }
          setDefaultHeader(request.headers!, 'Content-Type', 'application/json');
        } else {
          request.body = interpolateText(bodyText, scope);
          setDefaultHeader(request.headers!, 'Content-Type', bodyFormat === 'html' ? 'text/html' : 'text/plain');
        }
      }
      let response;
      try {
        response = await ctx.http.request(request);
      } catch (error) {
        if (error instanceof TimeoutError) throw error;
        throw new RuleError(`the request to ${request.url} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      const exposed = {
        data: response.body ?? null,
        status: response.status,
        responseOk: response.status >= 200 && response.status <= 299,
        responseHeaders: response.headers,
        state: 'SUCCESS',
      };
      scope.set(slot, exposed);
      return { input: request, output: exposed };
    },
  };
}

function setDefaultHeader(headers: Record<string, string>, name: string, value: string): void {
  if (!Object.keys(headers).some((existing) => existing.toLowerCase() === name.toLowerCase())) headers[name] = value;
}

const REFERENCE = /\{([\p{L}\p{N}_$\- .[\]]+)\}/gu;

/** `{path}` references in text replaced by their values' text; unresolved references stay as written. */
function interpolateText(text: string, scope: FlowScope): string {
  return text.replace(REFERENCE, (literal, path: string) => {
    const value = scope.resolve(flowPath(path));
    return value === undefined ? literal : textOf(value);
  });
}

/**
 * `{path}` references in a JSON body: inside a string literal the value's text (escaped), elsewhere the value as
 * JSON (`{"items": {input.items}}` sends the array). Unresolved references become null / stay as written.
 */
function interpolateJson(text: string, scope: FlowScope): string {
  const inString = stringRanges(text);
  return text.replace(REFERENCE, (literal, path: string, offset: number) => {
    const value = scope.resolve(flowPath(path));
    if (inString(offset)) return value === undefined ? literal : JSON.stringify(textOf(value)).slice(1, -1);
    return value === undefined ? 'null' : (JSON.stringify(value) ?? 'null');
  });
}

function stringRanges(text: string): (offset: number) => boolean {
  const inside = new Uint8Array(text.length);
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (open) {
      inside[i] = 1;
      if (c === '\\') {
        inside[i + 1] = 1;
        i++;
      } else if (c === '"') open = false;
    } else if (c === '"') {
      open = true;
      inside[i] = 1;
    }
  }
  return (offset) => inside[offset] === 1;
}
