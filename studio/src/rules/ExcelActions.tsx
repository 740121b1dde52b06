// A decision table's way out to a spreadsheet and back (DecisionRules XLSX v2, docs/xlsx.md): Export to Excel
// downloads the version; Import from Excel takes a workbook as a new rule, as a new version of this rule, or into
// the open draft (nothing stored until Save). A refused file lists its problems by sheet and cell.
import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import type { Problem } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { navigate } from '../app/router.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { downloadBlob } from '../ui/states.tsx';

type Target = 'rule' | 'version' | 'draft';

const TARGETS: Array<{ id: Target; label: string }> = [
  { id: 'version', label: 'As a new version of this rule' },
  { id: 'rule', label: 'As a new rule' },
  { id: 'draft', label: 'Into the open draft (nothing is saved until you save)' },
];

/** The file's table in place of the draft's content; the draft keeps what names it (id, version, alias, name). */
function intoDraft(draft: RuleDocument, file: RuleDocument): RuleDocument {
  const { decisionTable, inputSchema, outputSchema, userVariables, description, tags } = file;
  return { ...draft, decisionTable, inputSchema, outputSchema, userVariables: userVariables ?? [], description: description ?? draft.description, tags: tags ?? draft.tags };
}

export function ExcelActions(props: { rule: RuleDocument; draft: RuleDocument; dirty: boolean; onDraft(next: RuleDocument): void }) {
  const { api, notify } = useStudio();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [target, setTarget] = useState<Target>('version');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; problems: Problem[] } | null>(null);
  const { rule } = props;

  async function exportFile() {
    try {
      const { blob, fileName } = await api.exportXlsx(rule.ruleId, rule.version);
      downloadBlob(fileName, blob);
      notify(props.dirty ? `Exported ${fileName} (the saved v${rule.version}; your unsaved edits are not in it)` : `Exported ${fileName}`, 'success');
    } catch (err) {
      notify(`Not exported: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
  }

  function close() {
    setOpen(false);
    setFile(null);
    setFailure(null);
  }

  async function importFile() {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    try {
      if (target === 'draft') {
        props.onDraft(intoDraft(props.draft, await api.readXlsx(file, rule.ruleId)));
        notify(`${file.name} is in the draft; save to keep it`, 'success');
      } else {
        const created = await api.importXlsx(file, target === 'version' ? rule.ruleId : undefined);
        notify(target === 'version' ? `Imported ${file.name} as v${created.version} (pending)` : `Imported ${file.name} as the new rule ${created.name}`, 'success');
        navigate({ page: 'rule', id: created.ruleId, version: created.version });
      }
      close();
    } catch (err) {
      setFailure(err instanceof ApiError ? { message: err.message, problems: err.problems } : { message: String(err), problems: [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="btn" onClick={() => void exportFile()}>Export to Excel</button>
      <button type="button" className="btn" onClick={() => setOpen(true)}>Import from Excel</button>
      <Dialog title="Import from Excel" open={open} onClose={close}>
        <div className="dialog-body">
          <p>A DecisionRules XLSX workbook (sheets Settings, Rule Variables, Table, Valid Values), as Export to Excel writes it.</p>
          <label className="field">
            <span>Excel file</span>
            <input type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              onChange={(e) => { setFile(e.target.files?.[0] ?? null); setFailure(null); }} />
          </label>
          <fieldset className="field">
            <legend>Import</legend>
            {TARGETS.map((t) => (
              <label key={t.id} className="field-inline">
                <input type="radio" name="xlsx-target" checked={target === t.id} onChange={() => setTarget(t.id)} /> {t.label}
              </label>
            ))}
          </fieldset>
          {failure && (
            <div className="banner banner-error" role="alert">
              {failure.problems.length === 0 ? <span>Not imported: {failure.message}</span> : (
                <div>
                  <strong>Not imported: {failure.problems.length} problem{failure.problems.length === 1 ? '' : 's'} in the file</strong>
                  <ul aria-label="Problems in the file">
                    {failure.problems.map((p, i) => <li key={i}><code>{p.path}</code> {p.message}</li>)}
                  </ul>
                </div>
              )}
            </div>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>Cancel</button>
          <button type="button" className="btn btn-primary" disabled={!file || busy} onClick={() => void importFile()}>{busy ? 'Importing…' : 'Import'}</button>
        </div>
      </Dialog>
    </>
  );
}
