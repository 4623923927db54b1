import { beforeEach, expect, it } from 'vitest';
import { openDatabase, type Store } from '../../main/store/database.ts';

let store: Store;
beforeEach(() => {
  store = openDatabase(':memory:');
  return () => store.close();
});

it('records a delivery once and ignores redeliveries', () => {
  expect(store.webhooks.recordIfNew('wh_1', { sessionId: 's1', eventType: 'session.completed', now: 100 })).toBe(true);
  expect(store.webhooks.recordIfNew('wh_1', { sessionId: 's1', eventType: 'session.completed', now: 200 })).toBe(false);
  expect(store.webhooks.recordIfNew('wh_2', { now: 200 })).toBe(true);
});

it('prunes deliveries older than the window', () => {
  store.webhooks.recordIfNew('wh_old', { now: 1_000 });
  store.webhooks.recordIfNew('wh_new', { now: 9_000 });
  expect(store.webhooks.prune(5_000, 10_000)).toBe(1);
  expect(store.webhooks.recordIfNew('wh_old', { now: 10_000 })).toBe(true); // forgotten, so new again
  expect(store.webhooks.recordIfNew('wh_new', { now: 10_000 })).toBe(false);
});
