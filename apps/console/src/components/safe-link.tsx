import { useState } from 'react';
import { webUrl } from './safe-url';

/**
 * Evidence and other URLs that reporters typed: a link only when it is http(s), opened without
 * handing this page to the other site; otherwise the characters as plain text.
 */
export function SafeLink({ href, label }: { href: string; label?: string }) {
  const url = webUrl(href);
  if (!url) return <span className="not-a-link" title="Not an http(s) link: shown as text">{label ?? href}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer nofollow">
      {label ?? href}
    </a>
  );
}

/** A player's avatar when its URL is http(s) and loads; their initial otherwise. */
export function Avatar({ src, name }: { src: string | null | undefined; name: string }) {
  const url = src ? webUrl(src) : null;
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url) {
    return (
      <span className="avatar avatar-empty" aria-hidden="true">
        {name.trim().charAt(0).toUpperCase()}
      </span>
    );
  }
  return <img className="avatar" src={url} alt={`Avatar of ${name}`} width={64} height={64} referrerPolicy="no-referrer" onError={() => setFailed(url)} />;
}
