// Aliases chosen by the user (docs/decisions/aliases-chosen-by-users.md): the slug a name suggests, the check of
// an alias against the space's rules as it is typed, and the dialog that changes a rule's alias. The server
// checks again on every write; this only says it earlier.
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import type { RuleItem } from '../api/client.ts';
import { useStudio } from '../app/context.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { aliasSlug, isRuleAlias, MAX_ALIAS_LENGTH } from '../../../src/rules/envelope.ts';

// One slug and one rule for aliases, the server's (src/rules/envelope.ts): the Studio only says earlier what a write checks.
export { aliasSlug, MAX_ALIAS_LENGTH };

/** The rule other than `self` that has `alias` as its alias or id. */
function ownerOf(alias: string, items: readonly RuleItem[], self?: string): RuleItem | undefined {
  return items.find((i) => i.ruleId !== self && (i.ruleAlias === alias || i.ruleId === alias));
}

/**
 * The alias the New rule dialog proposes for a name: its slug, or when another rule has the slug, the first free
 * `-2`, `-3`, ... (as the server does), with the rule that has the slug so the dialog can say why.
 */
export function suggestedAlias(name: string, items: readonly RuleItem[]): { alias: string; clashesWith?: RuleItem } {
  const slug = aliasSlug(name);
  const clashesWith = ownerOf(slug, items);
  if (!clashesWith) return { alias: slug };
  for (let n = 2; ; n++) if (!ownerOf(`${slug}-${n}`, items)) return { alias: `${slug}-${n}`, clashesWith };
}

/** Why `alias` cannot be the alias of rule `self` (undefined for a new rule), or null when it can. */
export function aliasProblem(alias: string, items: readonly RuleItem[], self?: string): string | null {
  if (alias === '') return 'Give the rule an alias: solvers call it by this name.';
  if (!isRuleAlias(alias)) {
    return `An alias is 1-${MAX_ALIAS_LENGTH} letters, digits and "-" (no spaces or other signs).`;
  }
  const owner = ownerOf(alias, items, self);
  if (owner) return `“${alias}” is already the ${owner.ruleId === alias ? 'id' : 'alias'} of the rule “${owner.name}”. Choose another alias.`;
  return null;
}

/** The space's rule versions, loaded when `active` turns on, for checking aliases as they are typed. */
export function useSpaceItems(active: boolean): RuleItem[] | null {
  const { api } = useStudio();
  const [items, setItems] = useState<RuleItem[] | null>(null);
  useEffect(() => {
    if (!active) return;
    let current = true;
    setItems(null);
    api.listItems().then((list) => { if (current) setItems(list); }, () => { if (current) setItems([]); });
    return () => { current = false; };
  }, [api, active]);
  return items;
}

/** "Change alias" on the rule page: the new alias, checked as it is typed, for every version of the rule. */
export function ChangeAliasDialog(props: { open: boolean; ruleId: string; ruleName: string; alias: string; onClose(): void; onChanged(alias: string): void }) {
  const { api } = useStudio();
  const items = useSpaceItems(props.open);
  const [alias, setAlias] = useState(props.alias);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (props.open) { setAlias(props.alias); setError(null); } }, [props.open, props.alias]);
  const problem = alias === props.alias ? null : aliasProblem(alias, items ?? [], props.ruleId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (problem || alias === props.alias) return;
    setBusy(true);
    setError(null);
    try {
      await api.setAlias(props.ruleId, alias);
      props.onChanged(alias);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title="Change alias" open={props.open} onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)} className="dialog-body">
        <p className="muted small">Every version of “{props.ruleName}” takes the new alias at once. Solvers and flows that call the old alias <strong>{props.alias}</strong> stop finding the rule.</p>
        <label className="field">
          <span>Alias</span>
          <input value={alias} autoFocus spellCheck={false} maxLength={MAX_ALIAS_LENGTH} aria-invalid={problem !== null}
            aria-describedby={problem ? 'change-alias-problem' : undefined} onChange={(e) => setAlias(e.target.value)} />
        </label>
        {problem && <p id="change-alias-problem" className="form-error" role="alert">{problem}</p>}
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy || problem !== null || alias === props.alias}>Change alias</button>
        </div>
      </form>
    </Dialog>
  );
}
