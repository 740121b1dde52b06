// Request bodies are JSON. A missing content type is read as JSON (SPEC 3.1); any other type is refused with 415.
// JSON goes through Fastify's own parser, which also rejects __proto__ / constructor.prototype keys. A number that
// overflows to Infinity is refused here, naming its path (only bodies with an exponent or a long digit run are walked).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NON_FINITE_MESSAGE, firstNonFinite } from '../rules/non-finite.ts';
import { HttpError } from './errors.ts';

export function registerJsonOnly(app: FastifyInstance): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  const parse = (request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void): void => {
    if (body === '') {
      if (request.headers['content-type'] === undefined) return done(null, undefined);
      return done(new HttpError(400, 'Request body is empty: send a JSON object such as {"data": {...}}'));
    }
    void defaultJson(request, body, (err, value) => {
      if (!err) {
        const overflow = firstNonFinite(body, value, 'body');
        return overflow === undefined ? done(null, value) : done(new HttpError(400, `${overflow} ${NON_FINITE_MESSAGE}`));
      }
      try {
        JSON.parse(body);
        done(new HttpError(400, 'Request body contains a forbidden "__proto__" or "constructor.prototype" key'));
      } catch (syntax) {
        done(new HttpError(400, `Request body is not valid JSON: ${syntax instanceof Error ? syntax.message : String(syntax)}`));
      }
    });
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => parse(request, body as string, done));
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const type = request.headers['content-type'];
    if (type === undefined || type.trim() === '') return parse(request, body as string, done);
    done(new HttpError(415, `Unsupported content type "${type.split(';')[0]!.trim()}": send application/json`));
  });
}
