import { useEffect, useState } from 'react';

/**
 * Hash routes (#/queue, #/cases/ID, #/players/ID, #/appeals, #/appeals/ID, #/stats): the gateway serves one static
 * index.html, and nothing secret ever goes into these addresses.
 */
export type Route =
  | { page: 'queue' }
  | { page: 'case'; caseId: string }
  | { page: 'report'; reportId: string }
  | { page: 'player'; userId: string }
  | { page: 'appeals' }
  | { page: 'appeal'; appealId: string }
  | { page: 'stats' };

export function parseRoute(hash: string): Route {
  const [, page, id] = hash.replace(/^#/, '').split('/');
  const arg = id ? decodeURIComponent(id) : '';
  if (page === 'cases' && arg) return { page: 'case', caseId: arg };
  if (page === 'reports' && arg) return { page: 'report', reportId: arg };
  if (page === 'players' && arg) return { page: 'player', userId: arg };
  if (page === 'appeals' && arg) return { page: 'appeal', appealId: arg };
  if (page === 'appeals') return { page: 'appeals' };
  if (page === 'stats') return { page: 'stats' };
  return { page: 'queue' };
}

export const hrefOf = (route: Route): string => {
  switch (route.page) {
    case 'queue':
      return '#/queue';
    case 'case':
      return `#/cases/${encodeURIComponent(route.caseId)}`;
    case 'report':
      return `#/reports/${encodeURIComponent(route.reportId)}`;
    case 'player':
      return `#/players/${encodeURIComponent(route.userId)}`;
    case 'appeals':
      return '#/appeals';
    case 'appeal':
      return `#/appeals/${encodeURIComponent(route.appealId)}`;
    case 'stats':
      return '#/stats';
  }
};

export const go = (route: Route) => {
  window.location.hash = hrefOf(route);
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
