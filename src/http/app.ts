// The Fastify application, built from plugins: solver (+ deprecated composition endpoint) with its OpenAPI
// document at /api/solver/docs, management (audit now; the management API plugs in here) with its document at
// /api/docs, health and metrics. Each docs group is an encapsulated scope with its own @fastify/swagger, so each
// document lists only its own routes, generated from the same schemas that validate the requests.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { Logger } from 'pino';
import swaggerUi from '@fastify/swagger-ui';
import { SWAGGER_UI_STYLE, contentSecurityPolicy } from './csp.ts';
import type { Services } from '../service/index.ts';
import { clientErrorHandler, noteAnsweredBeforeBody } from './client-errors.ts';
import { registerJsonOnly } from './content-type.ts';
import { errorBody, errorHandler, notFoundHandler } from './errors.ts';
import { auditPlugin } from './plugins/audit.ts';
import { healthPlugin } from './plugins/health.ts';
import type { ReadinessCheck } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { solverPlugin } from './plugins/solver.ts';
import { agentPlugin } from './plugins/agent.ts';
import { attachRequestLog, httpLog } from './request-log.ts';
import { recordRoutes } from './route-table.ts';
import type { RouteEntry } from './route-table.ts';
import { AJV_OPTIONS, schemaErrorFormatter } from './validation.ts';
import { packageVersion } from '../version.ts';

/** A plugin of the management API group (issue: management API). Receives the services. */
export type ManagementPlugin = FastifyPluginAsync<{ services: Services }>;

export interface AppOptions {
  services: Services;
  /** The server's pino logger; omitted: silent. */
  logger?: Logger;
  /** Extra readiness checks (e.g. Kafka) for /health/ready, by name. */
  readinessChecks?: Record<string, ReadinessCheck>;
  /** Routes of the management API, registered in the management docs group under its auth conventions. */
  managementPlugins?: ManagementPlugin[];
  /** Plugins outside both docs groups (e.g. /admin). */
  plugins?: Array<FastifyPluginAsync<{ services: Services }>>;
}

export interface VerdictApp extends FastifyInstance {
  /** Marks the app as shutting down: readiness answers 503. */
  markShuttingDown(): void;
  /** Every route with the permission it needs (route-table.ts). */
  readonly routeTable: readonly RouteEntry[];
}

const CORRELATION_ID = /^[\x21-\x7e]{1,256}$/;

function correlationIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const value = request.headers['x-correlation-id'];
  const id = Array.isArray(value) ? value[0] : value;
  return id !== undefined && CORRELATION_ID.test(id) ? id : randomUUID();
}

export async function buildApp(options: AppOptions): Promise<VerdictApp> {
  const { services } = options;
  const { config } = services;
  let shuttingDown = false;
  // Fastify gets no logger: with one it would make a pino child and time every response whether or not anything
  // is logged. The server's logger is set on Fastify's public log properties instead (request-log.ts).
  const log = options.logger === undefined ? undefined : httpLog(options.logger);
  const app = Fastify({
    // One log line per request comes from the onResponse hook below; every line of a request carries its id.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => correlationIdOf(req),
    bodyLimit: config.bodyLimitBytes,
    // A request must arrive whole within BODY_TIMEOUT_MS: one whose Content-Length promises more than ever comes is
    // answered 408 (client-errors.ts), or, when it was already answered (a 401 before its body), closed. Node checks
    // its connections at an interval; a second (or the timeout, when shorter) keeps the close near the limit.
    requestTimeout: config.bodyTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.bodyTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, config.bodyTimeoutMs),
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // TRUST_PROXY: request.ip and request.protocol from X-Forwarded-For / X-Forwarded-Proto (sign-in throttling by
    // address, the session cookie's Secure flag).
    trustProxy: config.trustProxy,
    ajv: { customOptions: AJV_OPTIONS },
    schemaErrorFormatter,
    // Requests already on an open connection when shutdown begins are served (with Connection: close, below)
    // rather than refused with a body of another shape.
    return503OnClosing: false,
    // Requests Node's HTTP parser refuses never reach the routes: answered in the same error shape (client-errors.ts).
    clientErrorHandler,
    frameworkErrors: (error, req, reply) => {
      void (reply as FastifyReply).header('x-correlation-id', req.id).code(400).send(errorBody(`Bad request: ${error.message}`));
    },
  }) as unknown as VerdictApp;
  // Set before any plugin is registered: every scope, and Fastify's own lines (listening, failed hooks), use it.
  if (log !== undefined) app.log = log;

  app.decorate('markShuttingDown', () => {
    shuttingDown = true;
  });
  app.decorate('routeTable', recordRoutes(app));

  // Callback-style hooks: none of them waits, so none should cost a promise per request.
  // The first hook of every request, routed or not: nothing has logged for it yet.
  app.addHook('onRequest', log === undefined
    ? (request, reply, done) => {
      void reply.header('x-correlation-id', request.id);
      done();
    }
    : (request, reply, done) => {
      attachRequestLog(log, request, reply);
      void reply.header('x-correlation-id', request.id);
      done();
    });
  app.addHook('onSend', (request, reply, payload, done) => {
    // During shutdown every response closes its connection, so keep-alive clients cannot hold the drain open.
    if (shuttingDown) void reply.header('connection', 'close');
    // Answered before its body arrived (a refused key, say): the rest is read and dropped, up to the body timeout.
    if (!request.raw.complete) noteAnsweredBeforeBody(request.raw);
    done(null, payload);
  });
  // The per-request line is info (debug for health and metrics). Below that level the hook is not installed at
  // all: the level is fixed when the server starts.
  if (log !== undefined && log.isLevelEnabled('info')) {
    app.addHook('onResponse', (request: FastifyRequest, reply, done) => {
      const quiet = request.url === '/health-check' || request.url.startsWith('/health/') || request.url === '/metrics';
      const level = quiet ? 'debug' : 'info';
      if (log.isLevelEnabled(level)) {
        const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 };
        request.log[level](line, 'request');
      }
      done();
    });
  }

  // Cookies are parsed only where a session is looked for (src/http/session-auth.ts), not on every solve; the
  // plugin still writes the Set-Cookie headers of sign-in and sign-out.
  await app.register(cookie, { hook: false });
  registerJsonOnly(app);
  app.setErrorHandler(errorHandler({ bodyLimitBytes: config.bodyLimitBytes }));
  app.setNotFoundHandler(notFoundHandler);

  const version = packageVersion();

  await app.register(async (scope) => {
    await scope.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Verdict Solver API',
          version,
          description: 'Solves stored rules. Wire-compatible with the DecisionRules Solver API.',
        },
        components: {
          securitySchemes: {
            solverKey: { type: 'http', scheme: 'bearer', description: 'A solver key of the space' },
            accessToken: { type: 'apiKey', in: 'header', name: 'X-Access-Token', description: 'GoRules Agent API: a solver key of the space' },
          },
        },
      },
    });
    await scope.register(swaggerUi, { routePrefix: '/api/solver/docs', staticCSP: contentSecurityPolicy(SWAGGER_UI_STYLE) });
    await scope.register(solverPlugin, { services });
    await scope.register(agentPlugin, { services });
  });

  await app.register(async (scope) => {
    await scope.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: 'Verdict Management API', version, description: 'Manages the rules and audit records of a space.' },
        components: { securitySchemes: { managementKey: { type: 'http', scheme: 'bearer', description: 'A management key of the space' } } },
      },
    });
    await scope.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: contentSecurityPolicy(SWAGGER_UI_STYLE) });
    await scope.register(auditPlugin, { services });
    for (const plugin of options.managementPlugins ?? []) await scope.register(plugin, { services });
  });

  await app.register(healthPlugin, { services, checks: options.readinessChecks ?? {}, isShuttingDown: () => shuttingDown });
  await app.register(metricsPlugin, { services });
  for (const plugin of options.plugins ?? []) await app.register(plugin, { services });

  await app.ready();
  return app;
}
