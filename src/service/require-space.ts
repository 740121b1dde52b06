// The one "does this space exist" check of the service layer (SpaceService.require, key creation, imports,
// Kafka bindings all use it): throws ServiceError space-not-found.
import type { Store } from '../store/ports.ts';
import { spaceNotFound } from './errors.ts';

export async function requireSpace(store: Pick<Store, 'spaces'>, space: string): Promise<void> {
  if ((await store.spaces.get(space)) === undefined) throw spaceNotFound(space);
}
