// The DMN bench case's peer: Drools DMN in its own JVM (bench/drools) answers the case's models as Verdict does
// (the TCK's table models but the two listed in DMN_EXCLUDED, and the 1,000-rule table), and a bad request is
// refused with a message naming what is wrong, without ending the process.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DMN_EXCLUDED, disagreement, prepare } from '../../bench/cases/engine-dmn.ts';
import { DroolsDmn } from '../../bench/drools/client.ts';
import { TABLE1000_NAMESPACE, table1000Inputs, table1000Xml, tckTableModels } from '../../bench/lib/dmn-models.ts';
import { readDmn } from '../../src/rules/dmn/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
let drools: DroolsDmn;
let tmp: string;

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'verdict-drools-test-'));
  drools = await DroolsDmn.start(() => {});
});

after(async () => {
  await drools?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test('Drools DMN and Verdict agree on every model of the DMN bench case', async () => {
  const file = path.join(tmp, 'table1000.dmn');
  writeFileSync(file, table1000Xml());
  const models = [...tckTableModels(path.join(repoRoot, 'test', 'conformance', 'dmn-tck')), { name: 'table1000', file, inputs: table1000Inputs(1000, 50) }];
  const listed = models.filter((m) => m.name in DMN_EXCLUDED);
  assert.equal(listed.length, Object.keys(DMN_EXCLUDED).length, 'every left-out model is still one of the TCK table models');
  const compared = models.filter((m) => !(m.name in DMN_EXCLUDED));
  assert.ok(compared.length >= 20, `the case compares at least 20 models (${compared.length})`);
  for (const [index, model] of compared.entries()) {
    const p = await prepare(model, `m${index}`);
    const read = await readDmn(readFileSync(model.file, 'utf8'));
    await drools.load(p.id, [model.file], read.model?.namespace ?? TABLE1000_NAMESPACE, read.model?.name ?? model.name);
    assert.equal(await disagreement(p, drools), undefined, model.name);
  }
});

test('the models Drools answers differently are still answered differently (else they belong in the case)', async () => {
  for (const [index, model] of tckTableModels(path.join(repoRoot, 'test', 'conformance', 'dmn-tck')).filter((m) => m.name in DMN_EXCLUDED).entries()) {
    const p = await prepare(model, `x${index}`);
    const read = await readDmn(readFileSync(model.file, 'utf8'));
    await drools.load(p.id, [model.file], read.model!.namespace, read.model!.name);
    assert.match((await disagreement(p, drools)) ?? 'agrees', /input #/, model.name);
  }
});

test('a bad request to the Drools process is refused with its reason, and the process carries on', async () => {
  await assert.rejects(drools.answers('no-such-model', [{}]), /model no-such-model is not loaded/);
  await assert.rejects(drools.load('bad', [path.join(tmp, 'missing.dmn')], 'urn:x', 'x'), /Drools: /);
  const file = path.join(tmp, 'table1000-small.dmn');
  writeFileSync(file, table1000Xml(20));
  await drools.load('small', [file], TABLE1000_NAMESPACE, 'table1000');
  assert.deepEqual(await drools.answers('small', [{ amount: 15, category: 'business' }]), [{ pricing: { score: 1, band: 'band 1' } }]);
});
