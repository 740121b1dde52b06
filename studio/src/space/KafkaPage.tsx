// Kafka for the signed-in space: the request/response topic pair(s) bound to it and whether this server's channel
// consumes them; without a binding, how an operator enables it (topics are created with the admin token or the
// CLI, never from the Studio: they are a broker resource, docs/decisions/studio-space-pages.md).
import { useCallback } from 'react';
import { useStudio } from '../app/context.ts';
import { EmptyState, ErrorState, Loading, formatTime } from '../ui/states.tsx';
import { useResource } from '../ui/useResource.ts';
import { spaceApi } from './api.ts';
import type { KafkaState } from './api.ts';

function channelText(state: KafkaState): { tone: 'success' | 'warning'; text: string } {
  if (state.channelRunning) return { tone: 'success', text: 'The Kafka channel is running on this server.' };
  if (state.channelEnabled) return { tone: 'warning', text: 'The Kafka channel is enabled on this server but not running (starting or stopping).' };
  return { tone: 'warning', text: 'This server does not run the Kafka channel (KAFKA_ENABLED is not true). Servers that run it answer the topics below.' };
}

export function KafkaPage() {
  const { api } = useStudio();
  const { value: state, error, reload: load } = useResource(useCallback(() => spaceApi.kafka(api), [api]));

  const channel = state && channelText(state);
  return (
    <section className="content space-page" aria-labelledby="kafka-title">
      <div className="content-header">
        <div>
          <h1 id="kafka-title">Kafka</h1>
          <p className="muted">Solve requests sent to a request topic are answered on its response topic, with a solver key of this space in the <code>api-key</code> header.</p>
        </div>
        <div className="actions"><button type="button" className="btn" onClick={() => void load()}>Refresh</button></div>
      </div>
      {error && <ErrorState title="The Kafka state could not be loaded" message={error} onRetry={() => void load()} />}
      {!error && state === null && <Loading label="Loading the Kafka state…" />}
      {state && channel && (
        <>
          <div className={`banner banner-${channel.tone}`} role="status">{channel.text}</div>
          {state.bindings.length === 0 ? (
            <EmptyState title="Kafka is not enabled for this space">
              <p>An operator creates the space's topic pair on the brokers and binds it, with the command line:</p>
              <pre className="json-view">{`verdict kafka enable --space ${state.space} --company <company>`}</pre>
              <p>or with the admin API (admin token):</p>
              <pre className="json-view">{`POST /admin/spaces/${encodeURIComponent(state.space)}/kafka\n{"company": "<company>"}`}</pre>
              {!state.brokersConfigured && <p className="muted">This server has no KAFKA_BROKERS configured, so the command must run where they are.</p>}
            </EmptyState>
          ) : (
            <table className="data-table" aria-label="Kafka topics">
              <thead>
                <tr><th scope="col">Company</th><th scope="col">Request topic</th><th scope="col">Response topic</th><th scope="col">Bound</th><th scope="col">State</th></tr>
              </thead>
              <tbody>
                {state.bindings.map((b) => (
                  <tr key={b.requestTopic}>
                    <td>{b.company}</td>
                    <td><code>{b.requestTopic}</code></td>
                    <td><code>{b.responseTopic}</code></td>
                    <td className="nowrap">{formatTime(b.createdAt)}</td>
                    <td className="nowrap">
                      {b.consuming ? <span className="badge badge-published">consumed here</span> : <span className="badge badge-pending">not consumed by this server</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
