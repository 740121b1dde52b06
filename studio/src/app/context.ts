import { createContext, useContext } from 'react';
import type { Me } from '../api/auth.ts';
import type { ApiClient } from '../api/client.ts';
import type { Grants } from './permissions.ts';

export interface StudioContext {
  api: ApiClient;
  /** The signed-in person, their spaces and roles. */
  me: Me;
  /** What the role allows in the space the Studio shows. */
  grants: Grants;
  signOut(): void;
  /** Announces a short message in the status bar (role=status, read by screen readers). */
  notify(message: string, tone?: 'info' | 'error' | 'success'): void;
}

export const Studio = createContext<StudioContext | null>(null);

export function useStudio(): StudioContext {
  const context = useContext(Studio);
  if (!context) throw new Error('useStudio outside the signed-in Studio');
  return context;
}
