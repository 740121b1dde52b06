// The flow canvas's first view at 1280x800, in Chromium: every DecisionRules flow in /work/shared (the 14-node
// decision flow tutorial the largest) opens with its node labels at a readable size and its start node on the
// canvas; `Fit View` shows the whole flow; hiding the nodes list gives the canvas its width. The exports are read
// in place and imported through the management API, as a user imports them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { readContainer } from '../../src/rules/containers.ts';
import { chromiumSkip, screenshot, StudioSuite, viewAtRest, withFailureShot } from './support.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The shared DecisionRules exports, read in place when this machine has them (the main checkout's or a worktree's parent). */
const SHARED = [join(root, '../shared/fixtures/decisionrules'), join(root, '../../shared/fixtures/decisionrules')].find(existsSync);

interface SharedFlow { file: string; name: string; type: 'workflow' | 'composition'; nodes: number }

/** The flows in the shared exports, largest (by node count) first. */
function sharedFlows(dir: string): SharedFlow[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).flatMap((file) => {
    const container = readContainer(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    return container.rules.map((r) => r.document as Record<string, any>).filter((d) => d.type === 'workflow' || d.type === 'composition').map((d) => ({
      file, name: String(d.name), type: d.type,
      nodes: d.type === 'workflow' ? (d.workflowData?.nodes?.length ?? 0) : (d.dataTree?.nodes?.length ?? Object.keys(d.visualEditorData?.nodes ?? {}).length),
    }));
  }).sort((a, b) => b.nodes - a.nodes);
}

const skip = chromiumSkip() || (SHARED ? false : 'the shared DecisionRules exports (../shared/fixtures/decisionrules) are not on this machine');
if (!SHARED) console.warn('SKIPPED test/studio/flow-view.test.ts: ../shared/fixtures/decisionrules is not on this machine');

describe('Verdict Studio flow canvas first view in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;
  const flows = SHARED ? sharedFlows(SHARED) : [];
  before(async () => {
    for (const file of new Set(flows.map((f) => f.file))) await api('POST', '/api/folder/import', JSON.parse(readFileSync(join(SHARED!, file), 'utf8')));
  });

  const canvasOf = (page: Page): Locator => page.getByRole('region', { name: /flow canvas$/ });
  const startNode = (page: Page): Locator => page.getByRole('group', { name: 'Start node', exact: true });

  /** The view's zoom as a person sees it: a node's width on screen over its width in the flow's own layout. */
  async function zoomOf(page: Page, node: Locator): Promise<number> {
    const onScreen = (await node.boundingBox())!;
    const layout = await node.evaluate((element: any) => element.offsetWidth as number);
    return onScreen.width / layout;
  }

  /** The rendered size, in screen pixels, of the text of the start node's label (its font size times the zoom). */
  async function startLabelPixels(page: Page): Promise<number> {
    const node = startNode(page);
    const label = node.getByText('Start', { exact: true });
    const fontSize = await label.evaluate((element: any) => parseFloat((globalThis as any).getComputedStyle(element).fontSize));
    return fontSize * (await zoomOf(page, node));
  }

  function inside(inner: { x: number; y: number; width: number; height: number }, outer: { x: number; y: number; width: number; height: number }): boolean {
    return inner.x >= outer.x - 1 && inner.y >= outer.y - 1 && inner.x + inner.width <= outer.x + outer.width + 1 && inner.y + inner.height <= outer.y + outer.height + 1;
  }

  async function openFlow(page: Page, name: string): Promise<void> {
    const item = (await api('GET', '/api/space/items')).find((i: { name: string }) => i.name === name);
    assert.ok(item, `${name} was imported`);
    await page.goto(`${suite.studio.studioUrl}#/rules/${encodeURIComponent(item.ruleAlias ?? item.ruleId)}/${item.version}`);
    await canvasOf(page).waitFor();
    await startNode(page).waitFor();
    await viewAtRest(page);
  }

  test('every shared DecisionRules flow opens readable at 1280x800, from its start node', async () => {
    assert.ok(flows.length >= 2 && flows[0]!.nodes >= 10, `the shared exports hold the tutorial flow and others (${JSON.stringify(flows)})`);
    const { page, assertClean, close } = await suite.signedIn();
    for (const flow of flows) {
      await withFailureShot(page, `flow-view-${flow.file}`, async () => {
        await openFlow(page, flow.name);
        const pixels = await startLabelPixels(page);
        assert.ok(pixels >= 11, `${flow.name} (${flow.nodes} nodes): the start node's label is ${pixels.toFixed(1)} px on screen`);
        assert.ok(inside((await startNode(page).boundingBox())!, (await canvasOf(page).boundingBox())!), `${flow.name}: the start node is on the canvas`);
      });
    }
    assertClean();
    await close();
  });

  test('the largest shared flow: first view readable, Fit View shows every node, hiding the nodes list widens the canvas', async () => {
    const largest = flows[0]!;
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'flow-view-largest', async () => {
      await openFlow(page, largest.name);
      const canvas = canvasOf(page);
      const all = page.getByRole('group', { name: / node( |$)/ });
      assert.equal(await all.count(), largest.nodes, 'every node is on the canvas');
      assert.ok(await zoomOf(page, startNode(page)) >= 0.99, 'opens at normal size, not fitted to illegible cards');
      await screenshot(page, 'flow-view-first');

      // Fit View (the canvas controls) shows the whole flow, however wide.
      await page.getByRole('button', { name: 'Fit View' }).click();
      await viewAtRest(page);
      const area = (await canvas.boundingBox())!;
      for (let i = 0; i < await all.count(); i++) {
        const box = (await all.nth(i).boundingBox())!;
        assert.ok(inside(box, area), `${await all.nth(i).getAttribute('aria-label')} is inside the canvas after Fit View`);
      }
      await screenshot(page, 'flow-view-fitted');

      // The nodes list hides and shows again; the canvas takes its width meanwhile.
      const toggle = page.getByRole('button', { name: 'Hide nodes list' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      const before = area.width;
      await toggle.click();
      await page.getByRole('complementary', { name: 'Node inspector' }).waitFor({ state: 'hidden' });
      const shown = page.getByRole('button', { name: 'Show nodes list' });
      assert.equal(await shown.getAttribute('aria-expanded'), 'false');
      await page.waitForFunction((min) => (globalThis as any).document.querySelector('[role=region][aria-label$="flow canvas"]').getBoundingClientRect().width > min, before + 200);
      await screenshot(page, 'flow-view-wide');
      await shown.click();
      await page.getByRole('complementary', { name: 'Node inspector' }).getByRole('heading', { name: 'Nodes' }).waitFor();
      assert.ok(await page.getByRole('img', { name: 'Flow overview' }).isVisible(), 'the minimap is there');
      assertClean();
    });
    await close();
  });

  test('on the largest shared flow, Add node and Auto layout keep the view at normal size: onto the new node, then the start', async () => {
    const largest = flows[0]!;
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'flow-view-edit', async () => {
      await openFlow(page, largest.name);
      const canvas = canvasOf(page);
      await page.getByRole('button', { name: 'Add node' }).click();
      await page.getByRole('menuitem', { name: /^Assign/ }).click();
      const added = page.getByRole('group', { name: 'Assign node assign_4', exact: true });
      await added.waitFor();
      await viewAtRest(page);
      assert.ok(await zoomOf(page, added) >= 0.99, 'the view stays at normal size');
      assert.ok(inside((await added.boundingBox())!, (await canvas.boundingBox())!), 'the new node is on the canvas');
      await screenshot(page, 'flow-view-added');

      await page.getByRole('button', { name: 'Auto layout' }).click();
      await viewAtRest(page);
      assert.ok(await zoomOf(page, startNode(page)) >= 0.99, 'the laid out flow is shown at normal size');
      assert.ok(inside((await startNode(page).boundingBox())!, (await canvas.boundingBox())!), 'from its start node');
      await screenshot(page, 'flow-view-laid-out');
      assertClean();
    });
    await close();
  });
});
