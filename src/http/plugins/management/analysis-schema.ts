// OpenAPI schema of the decision table analysis report (engine/analysis/report.ts), answered by
// GET /api/tools/analysis and printed by `verdict lint --json`.
import { FINDING_KINDS } from '../../../engine/analysis/index.ts';

const rows = { type: 'array', items: { type: 'integer', minimum: 0 }, description: '0-based indexes into decisionTable.rows' } as const;
const columns = { type: 'array', items: { type: 'string' }, description: 'columnIds of condition columns' } as const;

export const analysisReportSchema = {
  type: 'object',
  required: ['findings', 'undecided', 'omitted'],
  properties: {
    findings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'rows', 'columns', 'message'],
        properties: {
          kind: { type: 'string', enum: [...FINDING_KINDS] },
          rows: { ...rows, description: 'unreachable: the row, then the earlier rows covering it; overlap: the two rows; duplicate: the group; contradiction, type: the rows concerned; gap: none' },
          columns,
          example: { type: 'object', additionalProperties: true, description: 'an input showing the finding (overlap: both rows match it; gap: no row matches it)' },
          message: { type: 'string' },
        },
      },
    },
    undecided: {
      type: 'object',
      required: ['rows', 'columns', 'reasons'],
      description: 'What the analysis could not decide: cells it does not reason about (function cells, references, calculation columns...), time-limited rows, searches that reached their limit',
      properties: {
        rows,
        columns,
        reasons: {
          type: 'array',
          items: { type: 'object', required: ['reason', 'rows', 'columns'], properties: { reason: { type: 'string' }, rows, columns } },
        },
      },
    },
    omitted: {
      type: 'object',
      required: ['overlaps', 'gaps'],
      properties: {
        overlaps: { type: 'integer', minimum: 0, description: 'overlapping row pairs beyond the listed ones' },
        gaps: { type: 'boolean', description: 'true when more gaps may exist than are listed' },
      },
    },
  },
} as const;
