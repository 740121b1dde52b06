// Decision graphs (GoRules JDM in a `decision-graph` document) for the Studio's tests: small, readable ids.
import type { Doc } from './tables.ts';

/**
 * Shipping: the request goes through a table `fees` (country → fee: "CZ" 5, anything else 12), then a switch
 * `fork`: a fee over 10 takes the expression `surcharge` (adds `express: true`), else straight to the response.
 */
export function shippingGraph(name = 'Shipping graph'): Doc {
  return {
    type: 'decision-graph', name, status: 'pending', inputSchema: {}, outputSchema: {},
    decisionGraph: {
      nodes: [
        { id: 'in', name: 'request', type: 'inputNode', position: { x: 0, y: 160 } },
        {
          id: 'fees', name: 'fees', type: 'decisionTableNode', position: { x: 240, y: 160 },
          content: {
            hitPolicy: 'first',
            inputs: [{ id: 'country', name: 'Country', field: 'country' }],
            outputs: [{ id: 'fee', name: 'Fee', field: 'fee' }],
            rules: [{ _id: 'r1', country: '"CZ"', fee: '5' }, { _id: 'r2', country: '', fee: '12' }],
            passThrough: true,
          },
        },
        {
          id: 'fork', name: 'fork', type: 'switchNode', position: { x: 480, y: 160 },
          content: { hitPolicy: 'first', statements: [{ id: 's1', condition: 'fee > 10', isDefault: false }, { id: 's2', condition: '', isDefault: true }] },
        },
        { id: 'surcharge', name: 'surcharge', type: 'expressionNode', position: { x: 720, y: 60 }, content: { expressions: [{ id: 'e1', key: 'express', value: 'true' }], passThrough: true } },
        { id: 'out', name: 'response', type: 'outputNode', position: { x: 960, y: 160 } },
      ],
      edges: [
        { id: 'e-in-fees', type: 'edge', sourceId: 'in', targetId: 'fees' },
        { id: 'e-fees-fork', type: 'edge', sourceId: 'fees', targetId: 'fork' },
        { id: 'e-fork-surcharge', type: 'edge', sourceId: 'fork', targetId: 'surcharge', sourceHandle: 's1' },
        { id: 'e-surcharge-out', type: 'edge', sourceId: 'surcharge', targetId: 'out' },
        { id: 'e-fork-out', type: 'edge', sourceId: 'fork', targetId: 'out', sourceHandle: 's2' },
      ],
    },
  };
}
