import { createContext, useContext } from 'react';
import type { ApiClient } from '../api/client.ts';

export interface StudioContext {
  api: ApiClient;
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
