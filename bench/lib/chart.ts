// A dependency-free SVG bar chart: per case and scenario, the best median ops/s of each engine on a log scale.
import type { CaseResult } from './case.ts';

const COLOURS: Record<string, string> = { verdict: '#2563eb', zen: '#f97316', 'json-rules-engine': '#6b7280' };
const ENGINES = ['verdict', 'zen', 'json-rules-engine'];

interface Group {
  label: string;
  bars: { engine: string; value: number }[];
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function groups(cases: CaseResult[]): Group[] {
  const out: Group[] = [];
  for (const c of cases) {
    const scenarios = [...new Set(c.measurements.filter((m) => m.sample.unit === 'ops/s').map((m) => m.scenario))];
    for (const scenario of scenarios) {
      const bars = ENGINES.flatMap((engine) => {
        const medians = c.measurements.filter((m) => m.scenario === scenario && m.engine === engine && m.sample.unit === 'ops/s').map((m) => m.sample.median);
        return medians.length ? [{ engine, value: Math.max(...medians) }] : [];
      });
      const label = c.id === 'http' || c.id === 'kafka' ? `${c.id}` : `${c.title.split(' ')[0]} ${scenario}`;
      if (bars.length) out.push({ label, bars });
    }
  }
  return out;
}

export function renderChart(cases: CaseResult[]): string {
  const data = groups(cases);
  const width = 960;
  const left = 190;
  const right = 110;
  const barHeight = 11;
  const gap = 10;
  const top = 50;
  const plotWidth = width - left - right;
  const maxValue = Math.max(10, ...data.flatMap((g) => g.bars.map((b) => b.value)));
  const decades = Math.ceil(Math.log10(maxValue));
  const x = (value: number) => left + (Math.log10(Math.max(1, value)) / decades) * plotWidth;
  let y = top;
  const parts: string[] = [];
  for (const g of data) {
    const groupHeight = g.bars.length * barHeight;
    parts.push(`<text x="${left - 8}" y="${y + groupHeight / 2 + 4}" text-anchor="end" font-size="12">${escape(g.label)}</text>`);
    for (const b of g.bars) {
      const w = Math.max(1, x(b.value) - left);
      parts.push(`<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barHeight - 1}" fill="${COLOURS[b.engine] ?? '#999'}"><title>${escape(b.engine)}: ${Math.round(b.value)} ops/s</title></rect>`);
      parts.push(`<text x="${(left + w + 4).toFixed(1)}" y="${y + barHeight - 2}" font-size="10">${Math.round(b.value).toLocaleString('en-US')}</text>`);
      y += barHeight;
    }
    y += gap;
  }
  const height = y + 30;
  const axis: string[] = [];
  for (let d = 0; d <= decades; d++) {
    const px = x(10 ** d);
    axis.push(`<line x1="${px}" y1="${top - 6}" x2="${px}" y2="${y}" stroke="#e5e7eb"/>`);
    axis.push(`<text x="${px}" y="${y + 14}" text-anchor="middle" font-size="10">1e${d}</text>`);
  }
  const legend = ENGINES.map((e, i) => `<rect x="${left + i * 170}" y="14" width="12" height="12" fill="${COLOURS[e]}"/><text x="${left + i * 170 + 18}" y="24" font-size="12">${e === 'verdict' ? 'Verdict' : e}</text>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="24" font-size="14" font-weight="bold">ops/s (log)</text>`,
    ...legend,
    ...axis,
    ...parts,
    `<text x="${left}" y="${height - 6}" font-size="10">median of the measured runs; best in-flight level per engine</text>`,
    '</svg>',
    '',
  ].join('\n');
}
