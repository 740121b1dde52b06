// The Studio: time to first render of a 10,000-row x 20-column decision table in the designer, and the frame
// times while it scrolls, in headless Debian Chromium against a real server. Reported, never asserted; skipped
// with a note when /usr/bin/chromium is missing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start.ts';
import { chromiumInstalled, CHROMIUM, launchChromium } from '../../scripts/chromium.ts';
import { ensureStudioBuilt } from '../../scripts/studio-build.ts';
import { bigTable } from '../../test/studio/tables.ts';
import type { BenchCase } from '../lib/case.ts';
import { errorText } from '../lib/case.ts';
import { summarise } from '../lib/measure.ts';
import { scrollFrameTimes, timeToFirstCell } from '../lib/studio-measure.ts';

const ROWS = 10_000;
const COLUMNS = 20;

export const studioCase: BenchCase = {
  id: 'studio',
  title: 'Studio: open and scroll a 10,000-row x 20-column table in Chromium',
  key: 'studio',
  async run(ctx, result) {
    if (!chromiumInstalled()) {
      result.status = 'skipped';
      result.notes.push(`${CHROMIUM} is missing (apt-get install chromium): the Studio case was not run`);
      return;
    }
    ctx.log('  studio: building the Studio if stale ...');
    ensureStudioBuilt();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-studio-'));
    const config = loadConfig({
      DATABASE_URL: `sqlite:${path.join(dir, 'verdict.db')}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn',
      VERDICT_SEED_EXAMPLES: 'false', BODY_LIMIT_BYTES: String(64 * 1024 * 1024),
    });
    const server = await startServer({ config, logger: pino({ level: 'warn' }), services: { defaultMetrics: false } });
    const browser = await launchChromium();
    try {
      const key = server.createdDefaultSpace!.managementKey;
      const body = JSON.stringify(bigTable(ROWS, COLUMNS));
      const created = await fetch(`${server.url}/api/rule`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      if (!created.ok) throw new Error(`creating the table answered ${created.status}: ${await created.text()}`);
      const rule = (await created.json()) as { ruleId: string };
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      // The Studio signs in with a session cookie: the key is exchanged for one, as its sign-in page does.
      const session = await context.request.post(`${server.url}/api/auth/key-login`, { data: { key } });
      if (!session.ok()) throw new Error(`key sign-in answered ${session.status()}: ${await session.text()}`);
      const page = await context.newPage();
      const url = `${server.url}/studio/#/rules/${rule.ruleId}/1`;
      const runs = ctx.quick ? 3 : 5;
      const opens: number[] = [];
      const loads: number[] = [];
      const renders: number[] = [];
      for (let i = 0; i < runs; i++) {
        const figures = await timeToFirstCell(page, url);
        opens.push(figures.openMs);
        loads.push(figures.ruleLoadedMs);
        renders.push(figures.renderMs);
        ctx.log(`  studio: open ${i + 1}/${runs}: ${figures.openMs} ms (rule loaded at ${figures.ruleLoadedMs} ms, first cell ${figures.renderMs} ms later)`);
      }
      const open = summarise(opens, 'ms');
      const load = summarise(loads, 'ms');
      const render = summarise(renders, 'ms');
      const mb = (body.length / 1_048_576).toFixed(1);
      result.measurements.push({ scenario: 'open 10k x 20', engine: 'verdict', label: `Studio, navigation to first grid cell (${mb} MB rule)`, sample: open });
      result.measurements.push({ scenario: 'open: rule download', engine: 'verdict', label: 'navigation to the end of GET /api/rule (server + network)', sample: load });
      result.measurements.push({ scenario: 'open: Studio render', engine: 'verdict', label: 'rule downloaded to first grid cell (parse, designer, render)', sample: render });
      const scroll = await scrollFrameTimes(page, ctx.quick ? 180 : 360);
      result.measurements.push({ scenario: 'scroll 10k x 20', engine: 'verdict', label: `Studio, frame interval while scrolling (${scroll.frames} frames)`, sample: scroll.frameMs });
      result.summary = {
        openMs: Math.round(open.median), ruleLoadedMs: Math.round(load.median), renderMs: Math.round(render.median), scrollFrameMedianMs: round(scroll.frameMs.median), scrollFrameP95Ms: round(scroll.p95Ms),
        scrollFrameMaxMs: round(scroll.frameMs.max), scrollLongFrames: scroll.longFrames, ruleMB: round(body.length / 1_048_576),
      };
      result.notes.push('Open: from navigation start to the first gridcell in the DOM, split at the end of the rule\'s download (GET /api/rule/{id}/{version}). Scroll: requestAnimationFrame intervals while the grid scrolls 90 px per frame; headless Chromium without GPU.');
    } catch (error) {
      result.status = 'failed';
      result.notes.push(`Studio case failed: ${errorText(error)}`);
    } finally {
      await browser.close().catch(() => undefined);
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
