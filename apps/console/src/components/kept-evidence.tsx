import { useEffect, useState } from 'react';
import { authHeaders } from '../session/session';

export interface EvidenceItem {
  index: number;
  state: 'pending' | 'captured' | 'failed' | 'deleted';
  failure: string | null;
  detail: string | null;
  sha256: string | null;
  size: number | null;
  contentType: string | null;
  capturedAt: number | null;
  copyUrl: string | null;
}

type Shown = { kind: 'media'; url: string } | { kind: 'text'; text: string } | { kind: 'error'; message: string };

/**
 * Our kept copy of an evidence item, fetched from our own origin with the moderator's key or session (an
 * <img> cannot send a key), then shown from a blob: images, audio and video inline, text as text.
 * The player-supplied URL is never loaded.
 */
function KeptCopy({ item }: { item: EvidenceItem }) {
  const [shown, setShown] = useState<Shown | null>(null);
  useEffect(() => {
    if (!item.copyUrl) return undefined;
    let objectUrl: string | undefined;
    let cancelled = false;
    fetch(item.copyUrl, { headers: authHeaders('GET') })
      .then(async (res) => {
        if (!res.ok) throw new Error(`the server answered ${res.status}`);
        const blob = await res.blob();
        if (cancelled) return;
        if (/^(image|audio|video)\//.test(item.contentType ?? '')) {
          objectUrl = URL.createObjectURL(new Blob([blob], { type: item.contentType ?? '' }));
          setShown({ kind: 'media', url: objectUrl });
        } else setShown({ kind: 'text', text: await blob.text() });
      })
      .catch((err: Error) => !cancelled && setShown({ kind: 'error', message: err.message }));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [item.copyUrl, item.contentType]);

  if (!shown) return <span className="loading">Loading the kept copy…</span>;
  if (shown.kind === 'error') return <span className="error">Could not load the kept copy: {shown.message}</span>;
  if (shown.kind === 'text') return <pre className="text kept-text">{shown.text}</pre>;
  const type = item.contentType ?? '';
  if (type.startsWith('image/')) return <img className="kept-image" src={shown.url} alt={`Kept evidence ${item.index + 1}`} />;
  if (type.startsWith('audio/')) return <audio className="kept-media" src={shown.url} controls />;
  return <video className="kept-media" src={shown.url} controls />;
}

/** An item asked to be kept: its state, hash and size, and the copy once captured. */
export function KeptEvidence({ item }: { item: EvidenceItem }) {
  return (
    <div className={`kept kept-${item.state}`}>
      <p className="meta">
        Kept copy: <strong>{item.state}</strong>
        {item.failure && ` (${item.failure}${item.detail ? `: ${item.detail}` : ''})`}
        {item.sha256 && (
          <>
            {' '}· {item.contentType} · {item.size} bytes · <code title="SHA-256">{item.sha256.slice(0, 16)}…</code>
          </>
        )}
      </p>
      {item.state === 'captured' && <KeptCopy item={item} />}
    </div>
  );
}
