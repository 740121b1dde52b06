// The management transactions of the store (ManagementStore) on SQLite and PostgreSQL: all or nothing, change
// events only after commit, version numbers remembered across deletes, placements that follow their folders.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import type { ChangeEvent } from '../../src/store/ports.ts';
import { messageTable } from '../http/fixtures.ts';
import { backendOf, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

export function managementStoreSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`management store transactions on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let store: KyselyStore;
    const events: ChangeEvent[] = [];

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      store = await openStore(backend.url);
      store.changes.subscribe((event) => events.push(event));
      await store.spaces.create('s1', []);
      await store.spaces.create('s2', []);
    });
    after(async () => {
      if (skip) return;
      await store.close();
      await backend.cleanup();
    });

    test('a transaction that fails writes nothing and announces nothing', { skip }, async () => {
      events.length = 0;
      await assert.rejects(
        store.management.transaction('s1', async (tx) => {
          await tx.putRules([messageTable('r1', 'r1', 1, 'x')]);
          await tx.insertFolder({ id: 'f1', parentId: 'root', name: 'F', createdAt: '2026-01-01T00:00:00.000Z' });
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.deepEqual(await store.rules.listHeads('s1'), []);
      assert.deepEqual(await store.management.read('s1', (tx) => tx.folders()), []);
      assert.deepEqual(events, []);
    });

    test('a committed transaction announces each changed rule once, after commit', { skip }, async () => {
      events.length = 0;
      let seenInside = -1;
      await store.management.transaction('s1', async (tx) => {
        await tx.putRules([messageTable('r1', 'r1', 1, 'a'), messageTable('r1', 'r1', 2, 'b'), messageTable('r2', 'r2', 1, 'c')]);
        seenInside = events.length;
      });
      assert.equal(seenInside, 0);
      assert.deepEqual(events, [{ kind: 'rule', space: 's1', ruleId: 'r1' }, { kind: 'rule', space: 's1', ruleId: 'r2' }]);
    });

    test('deleting the top version keeps its number as the highest ever used, per space', { skip }, async () => {
      await store.management.transaction('s1', async (tx) => {
        assert.equal(await tx.highestVersion('r1'), 2);
        assert.equal(await tx.deleteRule('r1', 2), 1);
        assert.equal(await tx.highestVersion('r1'), 2);
        assert.equal(await tx.deleteRule('r1'), 1);
        assert.equal(await tx.highestVersion('r1'), 2);
        assert.equal(await tx.highestVersion('never'), 0);
      });
      assert.equal(await store.management.read('s2', (tx) => tx.highestVersion('r1')), 0, 'other spaces are not affected');
    });

    test('placements follow versions and disappear with their folder or their rule', { skip }, async () => {
      await store.management.transaction('s1', async (tx) => {
        await tx.putRules([messageTable('r3', 'r3', 1, 'a'), messageTable('r3', 'r3', 2, 'b')]);
        await tx.insertFolder({ id: 'f2', parentId: 'root', name: 'Two', createdAt: '2026-01-01T00:00:00.000Z' });
        await tx.place('r3', undefined, 'f2');
        await tx.place('r2', 1, 'f2');
      });
      const placed = await store.management.read('s1', (tx) => tx.placements());
      assert.deepEqual(placed.map((p) => `${p.ruleId}@${p.version}:${p.folderId}`).sort(), ['r2@1:f2', 'r3@1:f2', 'r3@2:f2']);
      await store.management.transaction('s1', async (tx) => {
        await tx.place('r3', 1, 'root');
        await tx.deleteRule('r2');
      });
      assert.deepEqual((await store.management.read('s1', (tx) => tx.placements())).map((p) => `${p.ruleId}@${p.version}`), ['r3@2']);
      await store.management.transaction('s1', (tx) => tx.deleteFolders(['f2']));
      assert.deepEqual(await store.management.read('s1', (tx) => tx.placements()), []);
      assert.deepEqual(await store.management.read('s1', (tx) => tx.folders()), []);
      assert.deepEqual(await store.management.read('s2', (tx) => tx.heads()), [], 'nothing leaked into another space');
    });

    test('history entries list newest first (then last appended first), per version, per space, and roll back with their write', { skip }, async () => {
      const at = (n: number): string => `2026-11-0${n}T00:00:00.000Z`;
      await store.management.transaction('s1', async (tx) => {
        await tx.appendHistory([
          { ruleId: 'h', version: 1, at: at(1), action: 'create', by: 'Alice' },
          { ruleId: 'h', version: 2, at: at(2), action: 'new-version', by: null },
          { ruleId: 'h', version: 1, at: at(2), action: 'tags', by: 'cli' },
          { ruleId: 'other', version: 1, at: at(3), action: 'create', by: 'Alice' },
        ]);
      });
      await assert.rejects(store.management.transaction('s1', async (tx) => {
        await tx.appendHistory([{ ruleId: 'h', version: 1, at: at(4), action: 'delete', by: 'Alice' }]);
        throw new Error('boom');
      }), /boom/);
      const all = await store.management.read('s1', (tx) => tx.history('h'));
      assert.deepEqual(all, [
        { ruleId: 'h', version: 1, at: at(2), action: 'tags', by: 'cli' },
        { ruleId: 'h', version: 2, at: at(2), action: 'new-version', by: null },
        { ruleId: 'h', version: 1, at: at(1), action: 'create', by: 'Alice' },
      ]);
      assert.deepEqual((await store.management.read('s1', (tx) => tx.history('h', 2))).map((e) => e.action), ['new-version']);
      assert.deepEqual(await store.management.read('s2', (tx) => tx.history('h')), [], 'another space has none of it');
      const many = Array.from({ length: 250 }, (_, i) => ({ ruleId: 'bulk', version: i + 1, at: at(5), action: 'import' as const, by: null }));
      await store.management.transaction('s2', (tx) => tx.appendHistory(many));
      const listed = await store.management.read('s2', (tx) => tx.history('bulk'));
      assert.equal(listed.length, 250);
      assert.deepEqual(listed.slice(0, 3).map((e) => e.version), [250, 249, 248], 'one write\'s entries list last appended first');
    });

    test('API keys keep an optional name', { skip }, async () => {
      const base = { space: 's1', type: 'management' as const, createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null };
      await store.keys.insert({ ...base, id: 'named', hash: 'a'.repeat(64), name: 'Alice' });
      await store.keys.insert({ ...base, id: 'unnamed', hash: 'b'.repeat(64) });
      assert.equal((await store.keys.get('named'))?.name, 'Alice');
      assert.equal((await store.keys.findByHash('b'.repeat(64)))?.name, null);
      assert.deepEqual((await store.keys.list('s1')).map((k) => [k.id, k.name]), [['named', 'Alice'], ['unnamed', null]]);
    });
  });
}
