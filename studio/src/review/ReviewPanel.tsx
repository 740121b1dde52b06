// The review bar of a rule version when the space requires approvals: its state (requested, approved, rejected,
// by whom, with the comment), Request review for editors, and for reviewers the comparison with the live version
// (the compare view of the rule's type) with Approve and Reject. The server decides; a refusal (an editor
// approving their own change: 409 own-approval) is shown as the server words it.
import { useEffect, useState } from 'react';
import type { RuleItem } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { GuardedButton } from '../ui/GuardedButton.tsx';
import { Loading, formatTime } from '../ui/states.tsx';
import { VersionCompare } from '../versions/VersionCompare.tsx';
import { actorText, approved, reviewApi } from './api.ts';
import type { Review } from './api.ts';

function stateText(review: Review): string {
  if (!review.current && review.state !== 'none') {
    return `The content changed after it was ${review.state === 'requested' ? 'sent for review' : review.state} by ${actorText(review.decidedBy ?? review.requestedBy)}: request a new review.`;
  }
  switch (review.state) {
    case 'none':
      return 'Not reviewed yet. Publishing this version needs an approval by someone other than its last editor.';
    case 'requested':
      return `Review requested by ${actorText(review.requestedBy)} on ${formatTime(review.requestedAt ?? undefined)}.`;
    case 'approved':
      return `Approved by ${actorText(review.decidedBy)} on ${formatTime(review.decidedAt ?? undefined)}.`;
    case 'rejected':
      return `Rejected by ${actorText(review.decidedBy)} on ${formatTime(review.decidedAt ?? undefined)}.`;
  }
}

/** The live version a reviewer compares with: the newest published version other than this one. */
function liveVersion(versions: RuleItem[], current: number): number | undefined {
  return versions.filter((v) => v.status === 'published' && v.version !== current).sort((a, b) => b.version - a.version)[0]?.version;
}

export function ReviewPanel(props: { rule: RuleDocument; review: Review | null; versions: RuleItem[]; onChanged(): void }) {
  const { review, rule } = props;
  const [requesting, setRequesting] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  if (!review) return <div className="banner review-bar" role="region" aria-label="Review"><span className="muted">Loading the review…</span></div>;
  const stale = !review.current && review.state !== 'none';
  const tone = approved(review) ? 'banner-success' : review.state === 'rejected' ? 'banner-error' : 'banner-info';
  return (
    <div className={`banner review-bar ${tone}`} role="region" aria-label="Review">
      <span className="badge">{review.state === 'none' ? 'not reviewed' : stale ? `${review.state}, then changed` : review.state}</span>
      <span>{stateText(review)}{review.comment && <> <q className="review-comment">{review.comment}</q></>}</span>
      <span className="review-actions">
        {(review.state === 'none' || review.state === 'rejected' || stale) && (
          <GuardedButton className="btn btn-small" permission="rules:edit" what="request a review" onClick={() => setRequesting(true)}>Request review</GuardedButton>
        )}
        {review.state === 'requested' && !stale && (
          <GuardedButton className="btn btn-small btn-primary" permission="rules:approve" what="approve or reject" onClick={() => setReviewing(true)}>Review changes</GuardedButton>
        )}
      </span>
      <RequestDialog open={requesting} rule={rule} onClose={() => setRequesting(false)} onDone={() => { setRequesting(false); props.onChanged(); }} />
      <DecideDialog open={reviewing} rule={rule} live={liveVersion(props.versions, rule.version)} onClose={() => setReviewing(false)}
        onDone={() => { setReviewing(false); props.onChanged(); }} />
    </div>
  );
}

function RequestDialog(props: { open: boolean; rule: RuleDocument; onClose(): void; onDone(): void }) {
  const { api, notify } = useStudio();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function submit() {
    setError(null);
    try {
      await reviewApi.request(api, props.rule.ruleId, props.rule.version, comment.trim() || undefined);
      notify(`Review requested for ${props.rule.name} v${props.rule.version}`, 'success');
      setComment('');
      props.onDone();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <Dialog title="Request review" open={props.open} onClose={props.onClose}>
      <div className="dialog-body">
        <p>Ask a publisher to review v{props.rule.version} of <strong>{props.rule.name}</strong>. The saved version is reviewed: save your draft first.</p>
        <label className="field"><span>Comment</span>
          <textarea rows={3} value={comment} placeholder="What changed and why (optional)" onChange={(e) => setComment(e.target.value)} />
        </label>
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>Cancel</button>
          <button type="button" className="btn btn-primary" onClick={() => void submit()}>Request review</button>
        </div>
      </div>
    </Dialog>
  );
}

function DecideDialog(props: { open: boolean; rule: RuleDocument; live: number | undefined; onClose(): void; onDone(): void }) {
  const { api, notify } = useStudio();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState<RuleDocument | null>(null);
  // The version under review as stored when the dialog opened: what is compared, and what a decision is about.
  const [reviewed, setReviewed] = useState<{ rule: RuleDocument; etag: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const { rule } = props;

  // The live version is read when the dialog opens (not before: most visits to a rule page review nothing).
  useEffect(() => {
    if (!props.open || props.live === undefined) return;
    let current = true;
    setLive(null);
    api.getRule(rule.ruleId, props.live).then(
      (r) => current && setLive(r.rule),
      (err: unknown) => current && setError(`The live version could not be read: ${err instanceof Error ? err.message : String(err)}`),
    );
    return () => { current = false; };
  }, [api, props.open, props.live, rule.ruleId]);

  useEffect(() => {
    if (!props.open) return;
    let current = true;
    setReviewed(null);
    api.getRule(rule.ruleId, rule.version).then(
      (r) => current && setReviewed(r),
      (err: unknown) => current && setError(`The version under review could not be read: ${err instanceof Error ? err.message : String(err)}`),
    );
    return () => { current = false; };
  }, [api, props.open, rule.ruleId, rule.version]);

  function close() {
    setComment('');
    setError(null);
    props.onClose();
  }

  async function decide(approve: boolean) {
    if (!approve && comment.trim() === '') {
      setError('Say in the comment what has to change before this version can be approved.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const etag = reviewed?.etag ?? null;
      if (approve) await reviewApi.approve(api, rule.ruleId, rule.version, etag, comment.trim() || undefined);
      else await reviewApi.reject(api, rule.ruleId, rule.version, etag, comment.trim());
      notify(approve ? `Approved ${rule.name} v${rule.version}` : `Rejected ${rule.name} v${rule.version}`, 'success');
      setComment('');
      props.onDone();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={`Review ${rule.name} v${rule.version}`} open={props.open} onClose={close} wide>
      <div className="dialog-body">
        {props.live === undefined
          ? <p>No version of this rule is live yet: approving lets v{rule.version} be published as its first live version.</p>
          : <p>The changes of v{rule.version} against the live version v{props.live}:</p>}
        {props.live !== undefined && live === null && !error && <Loading label="Loading the live version…" />}
        {props.live !== undefined && live && reviewed && (
          <div className="review-compare">
            <VersionCompare left={live} right={reviewed.rule} leftLabel={`Live (v${props.live})`} rightLabel={`For review (v${rule.version})`} />
          </div>
        )}
        <label className="field"><span>Comment</span>
          <textarea rows={3} value={comment} placeholder="Required to reject: what has to change" onChange={(e) => setComment(e.target.value)} />
        </label>
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>Cancel</button>
          <button type="button" className="btn btn-danger" disabled={busy || !reviewed} onClick={() => void decide(false)}>Reject</button>
          <button type="button" className="btn btn-primary" disabled={busy || !reviewed} onClick={() => void decide(true)}>Approve</button>
        </div>
      </div>
    </Dialog>
  );
}
