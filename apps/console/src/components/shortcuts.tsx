import { useEffect, useRef } from 'react';

export interface Shortcut {
  key: string;
  label: string;
  run: () => void;
  /** A shortcut whose button is disabled does nothing. */
  enabled?: boolean;
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Enter or Space on a focused link or button is that element's own: a shortcut must not take it. */
const activatesFocused = (event: KeyboardEvent) =>
  (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLElement && event.target.closest('a[href], button, summary, [role="button"]') !== null;

/** Single-key shortcuts for the page's main actions; ignored while typing in a field, or activating a focused control. */
export function useShortcuts(shortcuts: Shortcut[]): void {
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || activatesFocused(event)) return;
      const hit = ref.current.find((s) => s.key === event.key && s.enabled !== false);
      if (!hit) return;
      event.preventDefault();
      hit.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The page's shortcuts, listed where the moderator can see them. */
export function ShortcutList({ shortcuts }: { shortcuts: Shortcut[] }) {
  return (
    <aside className="shortcuts" aria-label="Keyboard shortcuts">
      <h2>Keyboard shortcuts</h2>
      <dl>
        {shortcuts.map((s) => (
          <div key={s.key}>
            <dt>
              <kbd>{s.key}</kbd>
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
