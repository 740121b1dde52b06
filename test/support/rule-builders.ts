// Rule-document builders shared by the HTTP and Kafka test fixtures (our own rules, in the DecisionRules export shape).

export type Doc = Record<string, unknown>;

export function cond(column: string, operator: string, value: unknown = ''): Doc {
  return { column, type: 'input', scalarCondition: { operator, value, type: 'general' } };
}
export function out(column: string, value: string): Doc {
  return { column, type: 'output', outputScalarValue: { type: 'common', value } };
}

/** Plant shop table. For {group:"plant", inStock:false}: rows 1 and 2 match; row 4 fails on inStock. */
/** A one-row table answering {"message": text}; versions of it tell which version was solved. */
export function messageTable(ruleId: string, alias: string, version: number, message: string, status = 'published'): Doc {
  return {
    name: `Message ${alias}`,
    type: 'decision-table',
    status,
    ruleId,
    version,
    ruleAlias: alias,
    inputSchema: { any: {} },
    outputSchema: { message: {} },
    decisionTable: {
      columns: [
        { columnId: 'c1', type: 'input', condition: { type: 'simple', name: 'Any', inputVariable: 'any' } },
        { columnId: 'c2', type: 'output', columnOutput: { type: 'simple', name: 'Message', outputVariable: 'message' } },
      ],
      rows: [{ active: true, cells: [cond('c1', 'anything'), out('c2', message)] }],
    },
  };
}

export function script(ruleId: string, alias: string, source: string): Doc {
  return {
    name: `Script ${alias}`,
    type: 'complex-rule',
    status: 'published',
    ruleId,
    version: 1,
    ruleAlias: alias,
    inputSchema: {},
    outputSchema: {},
    script: source,
  };
}

/** A rule flow: solves the plant table (FIRST_MATCH inside flows) with the flow input's group. */
