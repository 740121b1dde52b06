// Requests Node's HTTP parser refuses before Fastify sees them (duplicate or negative Content-Length,
// Transfer-Encoding with Content-Length, a bad chunk, a header byte HTTP forbids, headers over the size limit).
// There is no request or reply object at that point, so the answer is written to the socket by hand, in the one
// error shape of every other answer (SPEC 3.2): {"error": {"message"}} naming what was wrong, a fresh
// X-Correlation-Id (also on the log line), and Connection: close, since the rest of the stream cannot be trusted.
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { errorBody } from './errors.ts';

/** What each llhttp error means, in the client's terms. The parser's own reason is appended to each. */
const EXPLANATIONS: Record<string, string> = {
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length is given more than once',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length must be a non-negative integer',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding is invalid, or given together with Content-Length (send one of them)',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the chunked body is not a hexadecimal number',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value contains a byte HTTP does not allow (a non-ASCII byte in a name, or a control character)',
  HPE_INVALID_METHOD: 'the request method is not valid',
  HPE_INVALID_URL: 'the request target (URL) is not valid',
  HPE_INVALID_VERSION: 'the HTTP version is not valid',
  HPE_LF_EXPECTED: 'a line is not terminated by CRLF',
  HPE_CR_EXPECTED: 'a line is not terminated by CRLF',
};

interface ClientErrorAnswer {
  status: number;
  message: string;
}

export function describeClientError(err: ConnectionError & { reason?: unknown }): ClientErrorAnswer {
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: `Request headers exceed the limit of ${maxHeaderSize} bytes` };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request was not received completely in time' };
  const reason = typeof err.reason === 'string' && err.reason !== '' ? err.reason : undefined;
  const explanation = err.code === undefined ? undefined : EXPLANATIONS[err.code];
  const what = explanation === undefined ? (reason ?? 'the request could not be parsed') : reason === undefined ? explanation : `${explanation} (${reason})`;
  return { status: 400, message: `Malformed HTTP request: ${what}` };
}

/** The raw HTTP/1.1 response for a refused request. */
export function clientErrorResponse(answer: ClientErrorAnswer, correlationId: string): string {
  const body = JSON.stringify(errorBody(answer.message));
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Correlation-Id: ${correlationId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Set on a socket while its current request was answered before its body arrived whole. */
const ANSWERED_BEFORE_BODY = Symbol('verdict.answeredBeforeBody');
type MarkedSocket = Socket & { [ANSWERED_BEFORE_BODY]?: boolean };

/**
 * Notes that `request` is answered before its body arrived whole (a 401 from the key check, a 413 from the
 * Content-Length alone). Node reads and drops the rest of the body so the connection can serve the next request;
 * if the rest never comes, the body timeout ends the connection, and this note keeps a 408 from following the
 * answer already sent. The note is cleared when the body does end.
 */
export function noteAnsweredBeforeBody(request: IncomingMessage): void {
  const socket = request.socket as MarkedSocket | null;
  if (socket === null) return;
  socket[ANSWERED_BEFORE_BODY] = true;
  request.once('end', () => {
    socket[ANSWERED_BEFORE_BODY] = false;
  });
}

/** Fastify's `clientErrorHandler`: called with the Fastify instance as `this`. */
export function clientErrorHandler(this: FastifyInstance, err: ConnectionError, socket: Socket): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // The request was answered before its body, and the body never came whole: nothing more to say, only to close.
  if ((socket as MarkedSocket)[ANSWERED_BEFORE_BODY] === true) {
    this.log.info({ code: err.code }, 'closed a connection whose answered request never sent its whole body');
    socket.destroy();
    return;
  }
  const answer = describeClientError(err);
  const correlationId = randomUUID();
  this.log.info({ correlationId, code: err.code, statusCode: answer.status }, `refused a malformed request: ${answer.message}`);
  // Answer only when nothing of a response is on the wire yet (a bad chunk arrives after a request has started).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(answer, correlationId), () => socket.destroy());
}
