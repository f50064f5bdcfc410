import { useEffect, useState, type FormEvent } from 'react';
import { api } from './api/client';
import type { Me } from './api/me';
import { go, hrefOf, useRoute } from './components/router';
import { AppealPage } from './pages/appeal.page';
import { AppealsPage } from './pages/appeals.page';
import { CasePage } from './pages/case.page';
import { PlayerPage } from './pages/player.page';
import { QueuePage } from './pages/queue.page';
import { ReportPage } from './pages/report.page';
import { SignInPage } from './pages/sign-in.page';
import { StatsPage } from './pages/stats.page';
import { clearCredential, loadCredential } from './session/session';

export function App() {
  const [me, setMe] = useState<Me | null>(null);
  const [checking, setChecking] = useState(() => loadCredential() !== null);
  const route = useRoute();

  // A reload within the tab keeps the moderator signed in: the credential is still in sessionStorage.
  useEffect(() => {
    if (!checking) return;
    void api
      .GET('/v1/me')
      .then(({ data }) => {
        if (data) setMe(data);
        else clearCredential();
      })
      .catch(() => undefined)
      .finally(() => setChecking(false));
  }, [checking]);

  if (checking) return <p className="loading">Signing in…</p>;
  if (!me) return <SignInPage onSignedIn={setMe} />;

  const signOut = () => {
    clearCredential();
    setMe(null);
  };
  return (
    <div className="shell">
      <header>
        <nav aria-label="Main">
          <a href={hrefOf({ page: 'queue' })} aria-current={route.page === 'queue' ? 'page' : undefined}>
            Queue
          </a>
          <a href={hrefOf({ page: 'appeals' })} aria-current={route.page === 'appeals' || route.page === 'appeal' ? 'page' : undefined}>
            Appeals
          </a>
          <a href={hrefOf({ page: 'stats' })} aria-current={route.page === 'stats' ? 'page' : undefined}>
            Stats
          </a>
          <PlayerSearch />
        </nav>
        <div className="who">
          {me.moderator ? (
            <span>
              Signed in as <strong>{me.moderator.username}</strong>
            </span>
          ) : (
            <span className="warn">This key is not bound to a moderator: you can look, not act</span>
          )}
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      {route.page === 'queue' && <QueuePage />}
      {route.page === 'case' && <CasePage caseId={route.caseId} me={me} />}
      {route.page === 'report' && <ReportPage reportId={route.reportId} me={me} />}
      {route.page === 'player' && <PlayerPage userId={route.userId} />}
      {route.page === 'appeals' && <AppealsPage />}
      {route.page === 'appeal' && <AppealPage appealId={route.appealId} me={me} />}
      {route.page === 'stats' && <StatsPage />}
    </div>
  );
}

function PlayerSearch() {
  const [userId, setUserId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (userId.trim()) go({ page: 'player', userId: userId.trim() });
  };
  return (
    <form className="player-search" onSubmit={submit} role="search">
      <label htmlFor="player-id">Player id</label>
      <input id="player-id" value={userId} onChange={(e) => setUserId(e.target.value)} />
      <button type="submit">Find player</button>
    </form>
  );
}
