/**
 * Every word of the player's appeal page, in each language it speaks (docs/appeals.md). A language
 * is added by adding it to LANGUAGES and giving it a `Strings` (the compiler asks for every one).
 */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_PAGE_LANGUAGE: Language = 'en';

/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' };

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The page's language: `?lang=` when it names one we speak (the switch), else the first of the
 * browser's Accept-Language (by weight) whose language we speak, else English.
 */
export function pageLanguage(chosen: unknown, acceptLanguage: string | undefined): Language {
  if (typeof chosen === 'string' && isLanguage(chosen)) return chosen;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { primary: tag.trim().split('-')[0]!.toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((e) => e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((e) => e.primary).find(isLanguage) ?? DEFAULT_PAGE_LANGUAGE;
}

/** A time as a player reads it, in UTC (said so): "12 March 2027 at 14:05 UTC". */
export function formatTime(language: Language, ms: number): string {
  return `${new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms)} UTC`;
}

/** A count as a player reads it: 2,000 or 2.000. */
export const formatCount = (language: Language, n: number) => new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB').format(n);

/** The built-in kinds of the policy (BUILT_IN_KINDS), which the page names in its own words. */
export const PAGE_KINDS = ['warning', 'chat', 'matchmaking', 'ranked', 'ban'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];
export const isPageKind = (kind: string): kind is PageKind => (PAGE_KINDS as readonly string[]).includes(kind);

/** The messages that replace the page when it cannot show a decision. */
export type MessagePage = 'invalid' | 'expired' | 'crossSite' | 'badForm' | 'rateLimited' | 'off' | 'notFound' | 'unavailable';

export interface Strings {
  /** After the page's own title in the browser's tab. */
  site: string;
  languageNav: string;
  footer: string;

  title: string;
  intro: string;
  decisionHeading: string;
  labels: { restriction: string; status: string; from: string; until: string; rule: string; description: string; law: string; why: string; source: string; decidedBy: string; appealUntil: string };
  /** The built-in kinds in plain words (a kind the policy relabelled or added shows its own label). */
  kinds: Record<PageKind, string>;
  permanent: string;
  status: { active: string; scheduled: string; lifted: (when: string | null) => string; expired: (when: string | null) => string };
  decidedBy: { fully: string; partially: string; not: string };
  source: { reports: string; ownInitiative: string; detectedAutomatically: string };
  /** A sanction from before statements of reasons: what is missing. */
  noStatement: string;

  appealHeading: string;
  formIntro: string;
  formLabel: string;
  formHint: (max: string) => string;
  submit: string;
  otherRedress: string;
  errorTitlePrefix: string;
  errorSummary: string;
  errors: { empty: string; tooLong: (length: string, max: string) => string };

  sent: string;
  alreadyAppealed: string;
  pendingHeading: string;
  pendingSent: (when: string) => string;
  pendingReview: string;
  pendingDue: (when: string) => string;
  yourText: string;
  upheldHeading: string;
  overturnedHeading: string;
  decidedOn: (when: string) => string;
  reason: string;
  finalWord: string;

  closedHeading: string;
  closed: { window_closed: (when: string) => string; lifted: (when: string | null) => string; expired: (when: string | null) => string; scheduled: string };

  messages: Record<MessagePage, { title: string; body: string }>;
  reference: (ref: string) => string;
}

const en: Strings = {
  site: 'Moderation decision',
  languageNav: 'Language',
  footer: 'This page sets no cookies and loads nothing from other sites.',

  title: 'A restriction on your account',
  intro: 'This page explains a moderation decision about your account, and how you can appeal it.',
  decisionHeading: 'The decision',
  labels: {
    restriction: 'What is restricted',
    status: 'Status',
    from: 'Since',
    until: 'Until',
    rule: 'The rule',
    description: 'What the rule is about',
    law: 'The law',
    why: 'Why',
    source: 'How we learned of it',
    decidedBy: 'Who decided',
    appealUntil: 'You can appeal until',
  },
  kinds: {
    warning: 'A warning: nothing is restricted, but it counts if it happens again',
    chat: 'No text or voice chat',
    matchmaking: 'No matchmaking',
    ranked: 'No ranked play',
    ban: 'Banned: you cannot sign in to the game',
  },
  permanent: 'No end date: the restriction is permanent',
  status: {
    active: 'In force',
    scheduled: 'Not started yet',
    lifted: (when) => (when ? `Lifted on ${when}` : 'Lifted'),
    expired: (when) => (when ? `Ended on ${when}` : 'Ended'),
  },
  decidedBy: {
    fully: 'An automated system decided, without a person reviewing it first.',
    partially: 'A person decided, after an automated system flagged the case.',
    not: 'A person on our moderation team decided.',
  },
  source: {
    reports: 'Other players reported it.',
    ownInitiative: 'Our own checks found it.',
    detectedAutomatically: 'It was detected automatically.',
  },
  noStatement: 'This restriction is older than our written statements of reasons: only what is shown here was recorded.',

  appealHeading: 'Your appeal',
  formIntro: 'If you think this decision is wrong, tell us why. A person who took no part in the decision will review it. Appealing is free, and you can appeal once.',
  formLabel: 'Why the decision is wrong',
  formHint: (max) => `Up to ${max} characters. Do not include passwords or personal details we do not need.`,
  submit: 'Send appeal',
  otherRedress: 'You may also refer the decision to a certified out-of-court dispute settlement body, or to a court.',
  errorTitlePrefix: 'Error: ',
  errorSummary: 'There is a problem',
  errors: {
    empty: 'Write why you think the decision is wrong: the appeal is empty.',
    tooLong: (length, max) => `Your appeal has ${length} characters: shorten it to at most ${max}.`,
  },

  sent: 'Your appeal was sent.',
  alreadyAppealed: 'Your new text was not sent: this decision already has an appeal, and each decision can be appealed once.',
  pendingHeading: 'We received your appeal',
  pendingSent: (when) => `Sent on ${when}.`,
  pendingReview: 'A person who took no part in the decision is reviewing it.',
  pendingDue: (when) => `We aim to decide by ${when}. Come back to this page to see the outcome; the game will tell you too.`,
  yourText: 'What you wrote',
  upheldHeading: 'Your appeal was not successful: the decision stands',
  overturnedHeading: 'Your appeal was successful: the restriction is lifted',
  decidedOn: (when) => `Decided on ${when}.`,
  reason: 'The reviewer’s reason',
  finalWord: 'This is our final decision on your appeal. You may still refer it to a certified out-of-court dispute settlement body, or to a court.',

  closedHeading: 'You can no longer appeal here',
  closed: {
    window_closed: (when) => `The time to appeal ended on ${when}.`,
    lifted: (when) => `The restriction was lifted${when ? ` on ${when}` : ''}: there is nothing left to appeal.`,
    expired: (when) => `The restriction ended${when ? ` on ${when}` : ''}: there is nothing left to appeal.`,
    scheduled: 'The restriction has not started yet: you can appeal once it does.',
  },

  messages: {
    invalid: { title: 'This link does not work', body: 'The link is incomplete, was changed, or is not meant for this decision. Open the appeal link from the game again.' },
    expired: { title: 'This link has expired', body: 'Links to this page work for a limited time. Open the game again to get a new link; an appeal you already sent is kept.' },
    crossSite: { title: 'The form was not accepted', body: 'It was not sent from this page. Open the appeal link from the game, and send the form from there.' },
    badForm: { title: 'The form could not be read', body: 'Open the appeal link from the game again, and send the form from there.' },
    rateLimited: { title: 'Too many attempts', body: 'Please wait a minute, then try again.' },
    off: { title: 'Appeals are not available here', body: 'This service offers no appeal pages. Appeal through the game.' },
    notFound: { title: 'Page not found', body: 'Check the address, or open the appeal link from the game again.' },
    unavailable: { title: 'Something went wrong on our side', body: 'Please try again in a few minutes.' },
  },
  reference: (ref) => `If it keeps happening, give this reference to support: ${ref}.`,
};

const de: Strings = {
  site: 'Moderationsentscheidung',
  languageNav: 'Sprache',
  footer: 'Diese Seite setzt keine Cookies und lädt nichts von anderen Websites.',

  title: 'Eine Einschränkung Ihres Kontos',
  intro: 'Diese Seite erklärt eine Moderationsentscheidung zu Ihrem Konto und wie Sie dagegen Einspruch einlegen können.',
  decisionHeading: 'Die Entscheidung',
  labels: {
    restriction: 'Was eingeschränkt ist',
    status: 'Stand',
    from: 'Seit',
    until: 'Bis',
    rule: 'Die Regel',
    description: 'Worum es in der Regel geht',
    law: 'Das Gesetz',
    why: 'Warum',
    source: 'Wie wir davon erfahren haben',
    decidedBy: 'Wer entschieden hat',
    appealUntil: 'Einspruch möglich bis',
  },
  kinds: {
    warning: 'Eine Verwarnung: nichts ist eingeschränkt, aber sie zählt, falls es wieder vorkommt',
    chat: 'Kein Text- oder Sprachchat',
    matchmaking: 'Keine Spielersuche (Matchmaking)',
    ranked: 'Keine Ranglistenspiele',
    ban: 'Gesperrt: Sie können sich nicht im Spiel anmelden',
  },
  permanent: 'Ohne Enddatum: die Einschränkung ist dauerhaft',
  status: {
    active: 'In Kraft',
    scheduled: 'Noch nicht begonnen',
    lifted: (when) => (when ? `Aufgehoben am ${when}` : 'Aufgehoben'),
    expired: (when) => (when ? `Beendet am ${when}` : 'Beendet'),
  },
  decidedBy: {
    fully: 'Ein automatisiertes System hat entschieden, ohne vorherige Prüfung durch einen Menschen.',
    partially: 'Ein Mensch hat entschieden, nachdem ein automatisiertes System den Fall markiert hatte.',
    not: 'Ein Mensch aus unserem Moderationsteam hat entschieden.',
  },
  source: {
    reports: 'Andere Spieler haben es gemeldet.',
    ownInitiative: 'Unsere eigenen Prüfungen haben es festgestellt.',
    detectedAutomatically: 'Es wurde automatisch erkannt.',
  },
  noStatement: 'Diese Einschränkung ist älter als unsere schriftlichen Begründungen: nur das hier Gezeigte wurde festgehalten.',

  appealHeading: 'Ihr Einspruch',
  formIntro:
    'Wenn Sie diese Entscheidung für falsch halten, schreiben Sie uns, warum. Ein Mensch, der an der Entscheidung nicht beteiligt war, prüft Ihren Einspruch. Der Einspruch ist kostenlos, und Sie können ihn einmal einlegen.',
  formLabel: 'Warum die Entscheidung falsch ist',
  formHint: (max) => `Bis zu ${max} Zeichen. Geben Sie keine Passwörter oder persönlichen Angaben an, die wir nicht benötigen.`,
  submit: 'Einspruch senden',
  otherRedress: 'Sie können sich mit der Entscheidung auch an eine zertifizierte außergerichtliche Streitbeilegungsstelle oder an ein Gericht wenden.',
  errorTitlePrefix: 'Fehler: ',
  errorSummary: 'Es gibt ein Problem',
  errors: {
    empty: 'Schreiben Sie, warum Sie die Entscheidung für falsch halten: der Einspruch ist leer.',
    tooLong: (length, max) => `Ihr Einspruch hat ${length} Zeichen: kürzen Sie ihn auf höchstens ${max}.`,
  },

  sent: 'Ihr Einspruch wurde gesendet.',
  alreadyAppealed: 'Ihr neuer Text wurde nicht gesendet: gegen diese Entscheidung wurde bereits Einspruch eingelegt, und jede Entscheidung kann nur einmal angefochten werden.',
  pendingHeading: 'Wir haben Ihren Einspruch erhalten',
  pendingSent: (when) => `Gesendet am ${when}.`,
  pendingReview: 'Ein Mensch, der an der Entscheidung nicht beteiligt war, prüft ihn.',
  pendingDue: (when) => `Wir wollen bis ${when} entscheiden. Auf dieser Seite sehen Sie das Ergebnis; auch das Spiel teilt es Ihnen mit.`,
  yourText: 'Was Sie geschrieben haben',
  upheldHeading: 'Ihr Einspruch war nicht erfolgreich: die Entscheidung bleibt bestehen',
  overturnedHeading: 'Ihr Einspruch war erfolgreich: die Einschränkung ist aufgehoben',
  decidedOn: (when) => `Entschieden am ${when}.`,
  reason: 'Begründung der prüfenden Person',
  finalWord: 'Dies ist unsere abschließende Entscheidung über Ihren Einspruch. Sie können sich weiterhin an eine zertifizierte außergerichtliche Streitbeilegungsstelle oder an ein Gericht wenden.',

  closedHeading: 'Ein Einspruch ist hier nicht mehr möglich',
  closed: {
    window_closed: (when) => `Die Frist für einen Einspruch endete am ${when}.`,
    lifted: (when) => `Die Einschränkung wurde${when ? ` am ${when}` : ''} aufgehoben: es gibt nichts mehr anzufechten.`,
    expired: (when) => `Die Einschränkung endete${when ? ` am ${when}` : ''}: es gibt nichts mehr anzufechten.`,
    scheduled: 'Die Einschränkung hat noch nicht begonnen: Sie können Einspruch einlegen, sobald sie beginnt.',
  },

  messages: {
    invalid: { title: 'Dieser Link funktioniert nicht', body: 'Der Link ist unvollständig, wurde verändert oder gehört nicht zu dieser Entscheidung. Öffnen Sie den Einspruchslink erneut aus dem Spiel.' },
    expired: {
      title: 'Dieser Link ist abgelaufen',
      body: 'Links zu dieser Seite funktionieren nur begrenzte Zeit. Öffnen Sie das Spiel erneut, um einen neuen Link zu erhalten; ein bereits gesendeter Einspruch bleibt erhalten.',
    },
    crossSite: { title: 'Das Formular wurde nicht angenommen', body: 'Es wurde nicht von dieser Seite gesendet. Öffnen Sie den Einspruchslink aus dem Spiel und senden Sie das Formular von dort.' },
    badForm: { title: 'Das Formular konnte nicht gelesen werden', body: 'Öffnen Sie den Einspruchslink erneut aus dem Spiel und senden Sie das Formular von dort.' },
    rateLimited: { title: 'Zu viele Versuche', body: 'Bitte warten Sie eine Minute und versuchen Sie es dann erneut.' },
    off: { title: 'Einsprüche sind hier nicht verfügbar', body: 'Dieser Dienst bietet keine Einspruchsseiten an. Legen Sie Einspruch über das Spiel ein.' },
    notFound: { title: 'Seite nicht gefunden', body: 'Prüfen Sie die Adresse oder öffnen Sie den Einspruchslink erneut aus dem Spiel.' },
    unavailable: { title: 'Bei uns ist etwas schiefgelaufen', body: 'Bitte versuchen Sie es in einigen Minuten erneut.' },
  },
  reference: (ref) => `Wenn es weiterhin passiert, nennen Sie dem Support diese Referenz: ${ref}.`,
};

export const STRINGS: Record<Language, Strings> = { en, de };
