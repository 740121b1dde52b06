// In-browser figures of the Studio's table designer: time from navigation to the first grid cell on screen, and
// the frame times while the grid scrolls. Used by the Studio benchmark case and reported by the 10,000-row
// end-to-end scenario; never asserted.
import type { Page } from 'playwright-core';
import { summarise } from './measure.ts';
import type { Sample } from './measure.ts';

export interface OpenFigures {
  /** Navigation start to the first grid cell in the DOM (ms). */
  openMs: number;
  /** Navigation start to the end of the rule's download (GET /api/rule/...): the server's and the network's share. */
  ruleLoadedMs: number;
  /** End of the rule's download to the first grid cell: the Studio's own share (parse, designer, first render). */
  renderMs: number;
}

// Installed before any page script: notes when the first gridcell enters the DOM (performance.now(), whose zero
// is the navigation start).
const FIRST_CELL_PROBE = `(() => {
  const observer = new MutationObserver(() => {
    if (window.__firstCellAt === undefined && document.querySelector('[role="gridcell"]')) {
      window.__firstCellAt = performance.now();
      observer.disconnect();
    }
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
})()`;

/** Opens `url` (a rule page) in a fresh navigation and times the first grid cell, split into server and Studio. */
export async function timeToFirstCell(page: Page, url: string): Promise<OpenFigures> {
  await page.goto('about:blank');
  await page.addInitScript(FIRST_CELL_PROBE);
  await page.goto(url);
  await page.getByRole('gridcell').first().waitFor({ state: 'visible', timeout: 60_000 });
  const figures = (await page.evaluate(`(() => {
    const rule = performance.getEntriesByType('resource').filter((e) => { const p = new URL(e.name).pathname.split('/'); return p.length === 5 && p[1] === 'api' && p[2] === 'rule'; }).pop();
    return { firstCellAt: window.__firstCellAt, ruleEnd: rule ? rule.responseEnd : null };
  })()`)) as { firstCellAt: number; ruleEnd: number | null };
  const ruleEnd = figures.ruleEnd ?? 0;
  return { openMs: Math.round(figures.firstCellAt), ruleLoadedMs: Math.round(ruleEnd), renderMs: Math.round(figures.firstCellAt - ruleEnd) };
}

export interface ScrollFigures {
  frames: number;
  /** Frame-to-frame intervals while scrolling (ms). */
  frameMs: Sample;
  p95Ms: number;
  /** Frames over 50 ms: what a user sees as a stutter. */
  longFrames: number;
  /** Rows scrolled past. */
  scrolledPx: number;
}

/**
 * Scrolls the grid's scroll container by `stepPx` per animation frame for `frames` frames (down, then back up
 * half-way) and records each frame interval. The container is the nearest scrollable element at or around the
 * ARIA grid.
 */
export async function scrollFrameTimes(page: Page, frames = 240, stepPx = 90): Promise<ScrollFigures> {
  const intervals = (await page.evaluate(`(${IN_PAGE_SCROLL})(${frames}, ${stepPx})`)) as { times: number[]; scrolled: number };
  const sorted = [...intervals.times].sort((a, b) => a - b);
  return {
    frames: intervals.times.length,
    frameMs: summarise(intervals.times, 'ms'),
    p95Ms: sorted[Math.floor(sorted.length * 0.95)],
    longFrames: intervals.times.filter((t) => t > 50).length,
    scrolledPx: intervals.scrolled,
  };
}

// Runs in the page (kept as source text: this project's Node typecheck has no DOM types).
const IN_PAGE_SCROLL = `async (frames, stepPx) => {
  const grid = document.querySelector('[role="grid"]');
  if (!grid) throw new Error('no ARIA grid on the page');
  const scrollable = (el) => el instanceof HTMLElement && el.scrollHeight > el.clientHeight + 10 && /(auto|scroll)/.test(getComputedStyle(el).overflowY);
  let scroller = null;
  for (let el = grid; el && !scroller; el = el.parentElement) if (scrollable(el)) scroller = el;
  if (!scroller) scroller = [...grid.querySelectorAll('*')].find(scrollable) ?? null;
  if (!scroller) throw new Error('no scrollable element around the grid');
  const times = [];
  await new Promise((resolve) => {
    let last = 0;
    let n = 0;
    const tick = (now) => {
      times.push(now - last);
      last = now;
      n++;
      scroller.scrollTop += n <= frames * 0.75 ? stepPx : -stepPx;
      if (n < frames) requestAnimationFrame(tick); else resolve();
    };
    requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
  });
  return { times, scrolled: scroller.scrollTop };
}`;
