// The table designer in a real Chromium: ARIA grid structure, keyboard editing, undo, clipboard paste and copy
// as tab-separated text, the operator editor, inline expression errors, problems and bench trace on the cells,
// and a virtualized 10,000-row table. The designer's dev harness page is built with Vite (when its build is
// stale, scripts/studio-build.ts) and served from there. Chromium as in support.ts: the run's shared browser or
// the file's own. One page for the file (each test loads the harness afresh; the designer keeps nothing in the
// browser's storage); a test fails on any console error or warning it causes. Needs /usr/bin/chromium; skipped
// (loudly) without it unless CI=true.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/chromium.ts';
import { ensureDesignerHarnessBuilt, ensureStudioBuilt } from '../../scripts/studio-build.ts';
import { chromiumSkip, DEFAULT_TIMEOUT_MS } from './support.ts';

// Browser globals inside page.evaluate callbacks (this project's type check has no DOM library).
declare const window: any;
declare const document: any;
declare const DataTransfer: any;
declare const ClipboardEvent: any;

const skip = chromiumSkip();

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

describe('table designer in Chromium', { skip, timeout: 240_000 }, () => {
  let outDir = '';
  let server: Server;
  let base = '';
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  before(async () => {
    ensureStudioBuilt();
    outDir = await ensureDesignerHarnessBuilt();
    server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = join(outDir, path === '/' ? 'harness.html' : path);
      if (!file.startsWith(outDir) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/harness.html`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  });

  beforeEach(() => {
    errors = [];
  });

  afterEach(() => {
    assert.deepEqual(errors, [], 'no console error or warning in the browser');
  });

  after(async () => {
    // Connected to the run's shared Chromium, this only disconnects.
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  async function open(scenario = 'sample') {
    await page.goto(`${base}?scenario=${scenario}`);
    await page.getByRole('grid').waitFor();
  }
  const rule = () => page.evaluate(() => window.__rule);
  const condition = async (row: number, columnId: string) =>
    (await rule()).decisionTable.rows[row].cells.find((c: any) => c.column === columnId).scalarCondition;
  const cellAt = (row: number, col: number) => page.locator(`[role=row][aria-rowindex="${row + 2}"] [role=gridcell][aria-colindex="${col + 2}"]`);

  test('an ARIA grid of gridcells with row and column headers and counts', async () => {
    await open();
    const grid = page.getByRole('grid');
    assert.equal(await grid.getAttribute('aria-rowcount'), '3');
    assert.equal(await grid.getAttribute('aria-colcount'), '5');
    assert.equal(await page.getByRole('gridcell').count(), 8);
    assert.equal(await page.getByRole('columnheader').count(), 5);
    assert.equal(await page.getByRole('rowheader').count(), 2);
    for (const name of ['Add row', 'Insert row above', 'Duplicate row', 'Delete row', 'Move row up', 'Deactivate row', 'Add condition column', 'Add calculation column', 'Add result column', 'Rename column', 'Move column left', 'Delete column', 'Undo', 'Redo']) {
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    }
  });

  test('typing replaces a cell, Enter commits and moves down, Ctrl+Z and Ctrl+Y undo and redo', async () => {
    await open();
    await cellAt(0, 0).click();
    await page.keyboard.type('IN gold|silver');
    await page.keyboard.press('Enter');
    assert.deepEqual(await condition(0, 'a'), { operator: 'IN', value: ['gold', 'silver'], type: 'general' });
    assert.match((await page.getByRole('grid').getAttribute('aria-activedescendant'))!, /-r1-c0$/);
    await page.keyboard.press('Control+z');
    assert.deepEqual(await condition(0, 'a'), { operator: '=', value: 'basic', type: 'general' });
    await page.keyboard.press('Control+y');
    assert.deepEqual((await condition(0, 'a')).value, ['gold', 'silver']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+ArrowUp');
    assert.deepEqual(await condition(0, 'b'), { operator: '<', value: '18', type: 'general' }, 'Alt+ArrowUp moved row 2 above row 1');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Delete');
    assert.equal((await condition(0, 'a')).operator, 'anything');
  });

  test('Enter opens the operator editor; between gets From and To', async () => {
    await open();
    await cellAt(0, 1).click();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Operator', { exact: true }).selectOption('notBetween');
    await dialog.getByLabel('From', { exact: true }).fill('10');
    await dialog.getByLabel('To', { exact: true }).fill('20');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    assert.deepEqual(await condition(0, 'b'), { operator: 'notBetween', value: ['10', '20'], type: 'general' });
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'grid', 'focus returns to the grid');
  });

  test('a function condition shows the parser error inline as you type', async () => {
    await open();
    await cellAt(0, 0).click();
    await page.keyboard.press('F2');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Function', { exact: true }).click();
    await page.keyboard.type('AND(GT({client.age}, 3)');
    await dialog.locator('.dt-expr-error').waitFor();
    assert.match(await dialog.locator('.dt-expr-status').innerText(), /Line 1, column 4: missing '\)' to close AND\(/);
    assert.ok((await dialog.locator('.cm-x-function').count()) >= 2, 'function names are highlighted');
    await page.keyboard.type(')');
    await dialog.locator('.dt-expr-error').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Enter');
    const stored = await condition(0, 'a');
    assert.equal(stored.operator, 'function');
    assert.equal(stored.stringValue, 'AND(GT({client.age}, 3))');
  });

  test('pasting 50 tab-separated rows creates the rows; copying gives tab-separated text', async () => {
    await open();
    await cellAt(1, 0).click();
    const tsv = Array.from({ length: 50 }, (_, i) => `p${i}\tBTW [${i}, ${i + 5}]\t${i}\t"line ${i}\nsecond"`).join('\r\n') + '\r\n';
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, tsv);
    const after = await rule();
    assert.equal(after.decisionTable.rows.length, 51);
    assert.deepEqual(await condition(50, 'b'), { operator: 'between', value: ['49', '54'], type: 'general' });
    assert.equal(after.decisionTable.rows[50].cells.find((c: any) => c.column === 'm').outputScalarValue.value, 'line 49\nsecond');
    assert.match(await page.getByRole('status').last().innerText(), /Pasted 50 row\(s\), 49 new/);
    await cellAt(1, 0).click();
    await page.keyboard.press('Shift+ArrowRight');
    const copied = await page.evaluate(() => {
      const data = new DataTransfer();
      document.activeElement!.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData('text/plain');
    });
    assert.equal(copied, 'p0\tBTW [0, 5]\r\n');
  });

  test('problems and the bench trace are shown on their cells and rows', async () => {
    await open();
    const broken = cellAt(1, 0);
    assert.equal(await broken.getAttribute('aria-invalid'), 'true');
    const described = await page.locator(`#${await broken.getAttribute('aria-describedby')}`).innerText();
    assert.match(described, /unknown operator "betwen"/);
    assert.match((await page.locator('[role=row][aria-rowindex="2"]').getAttribute('class'))!, /dt-row-matched/);
    assert.match((await cellAt(0, 0).getAttribute('title'))!, /^basic\nCondition held — product = "basic"$/);
    assert.match((await cellAt(1, 1).getAttribute('title'))!, /did not hold — client\.age = 30/);
  });

  test('dragging a column edge resizes the column and its cells', async () => {
    await open();
    const header = page.locator('[role=columnheader][aria-colindex="2"]');
    const before = (await header.boundingBox())!.width;
    const handle = (await header.locator('.dt-resize').boundingBox())!;
    await page.mouse.move(handle.x + 3, handle.y + 10);
    await page.mouse.down();
    await page.mouse.move(handle.x + 103, handle.y + 10, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction((w) => document.querySelector('[role=columnheader][aria-colindex="2"]').getBoundingClientRect().width > w + 50, before);
    assert.equal((await cellAt(0, 0).boundingBox())!.width, (await header.boundingBox())!.width);
    assert.equal(await page.evaluate(() => window.__changes), 0, 'widths are a view setting, not a document edit');
  });

  test('a 10,000-row x 20-column table opens virtualized and keyboard navigation reaches its end', async () => {
    await open('big');
    const grid = page.getByRole('grid');
    assert.equal(await grid.getAttribute('aria-rowcount'), '10001');
    assert.equal(await grid.getAttribute('aria-colcount'), '21');
    const rendered = await page.getByRole('gridcell').count();
    assert.ok(rendered > 0 && rendered < 1000, `only the visible cells are in the DOM (${rendered})`);
    const openMs = await page.evaluate(() => window.__openMs);
    console.log(`10,000 x 20 table: first frame ${openMs?.toFixed(0)} ms after the script started, ${rendered} cells in the DOM`);
    await cellAt(0, 0).click();
    await page.keyboard.press('Control+End');
    await page.locator('[role=row][aria-rowindex="10001"] [role=gridcell][aria-colindex="21"]').waitFor();
    assert.match((await grid.getAttribute('aria-activedescendant'))!, /-r9999-c19$/);
  });

});
