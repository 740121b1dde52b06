// An audit record's debug trace drawn as the test bench draws a run: the rule version that was solved, in its
// kind's designer (read-only) with the trace lit up (a table's matched rows, a tree's path), then the kind's
// BenchView (a flow's nodes, a script's console) over the record's output and trace. The audit record holds the
// trace in the same shape POST /api/tools/solve answers it, so nothing here reads a trace itself.
import { useEffect, useState } from 'react';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { kindOf } from '../kinds/registry.ts';
import { EmptyState, Loading } from '../ui/states.tsx';
import type { AuditRecord } from './api.ts';

const ignore = () => undefined;

export function AuditTrace(props: { record: AuditRecord }) {
  const { api } = useStudio();
  const { record } = props;
  const [rule, setRule] = useState<RuleDocument | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const hasTrace = record.debug !== null && record.debug !== undefined;

  useEffect(() => {
    if (!hasTrace) return;
    if (record.version === null) {
      setProblem('The record names no rule version (the rule was not found when it was solved).');
      return;
    }
    api.getRule(record.ruleId, record.version).then(
      (loaded) => setRule(loaded.rule),
      (err: unknown) => setProblem(`Rule ${record.ruleAlias ?? record.ruleId} v${record.version} cannot be shown (${err instanceof Error ? err.message : String(err)}): the raw trace is below.`),
    );
  }, [api, hasTrace, record]);

  if (!hasTrace) {
    return (
      <EmptyState title="No trace in this record">
        <p>Solve with <code>X-Debug: true</code> to record the evaluation trace with the audit record.</p>
      </EmptyState>
    );
  }
  const kind = rule ? kindOf(rule.type) : undefined;
  return (
    <section className="audit-trace" aria-label="Debug trace">
      <h2>Trace</h2>
      {problem && <p className="muted">{problem}</p>}
      {!problem && rule === null && <Loading label="Opening the rule version…" />}
      {rule && !kind && <p className="muted">The Studio has no designer for {rule.type} rules: the raw trace is below.</p>}
      {rule && kind && (
        <>
          <p className="muted small">{rule.name} v{rule.version} as stored now, with the path the recorded trace took.</p>
          <div className="designer-area trace-designer" aria-label={`${kind.label} designer`}>
            <kind.Designer rule={rule} onChange={ignore} problems={[]} trace={record.debug} readOnly />
          </div>
          {kind.BenchView && <kind.BenchView rule={rule} response={{ result: record.output, trace: record.debug, warnings: [] }} />}
        </>
      )}
      <details className="raw-trace">
        <summary>Raw trace (JSON)</summary>
        <pre className="json-view" aria-label="Trace JSON">{JSON.stringify(record.debug, null, 2)}</pre>
      </details>
    </section>
  );
}
