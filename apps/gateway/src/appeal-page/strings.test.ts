import { describe, expect, it } from 'vitest';
import { formatTime, pageLanguage, STRINGS } from './strings.js';

describe('the page language', () => {
  it('?lang= when it names one the page speaks, else the best of Accept-Language, else English', () => {
    expect(pageLanguage('de', 'en')).toBe('de');
    expect(pageLanguage('fr', 'de')).toBe('de');
    expect(pageLanguage(['de', 'en'], undefined)).toBe('en');
    expect(pageLanguage(undefined, 'de-AT,de;q=0.9,en;q=0.8')).toBe('de');
    expect(pageLanguage(undefined, 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7')).toBe('en');
    expect(pageLanguage(undefined, 'en;q=0.5, de;q=0.8')).toBe('de');
    expect(pageLanguage(undefined, 'de;q=0, en')).toBe('en');
    expect(pageLanguage(undefined, 'ja, *')).toBe('en');
    expect(pageLanguage(undefined, ';;,=q,,DE')).toBe('de');
    expect(pageLanguage(undefined, undefined)).toBe('en');
  });

  it('every language has every message, and times say UTC', () => {
    expect(Object.keys(STRINGS.de.messages).sort()).toEqual(Object.keys(STRINGS.en.messages).sort());
    expect(formatTime('en', Date.UTC(2027, 2, 12, 14, 5))).toBe('12 March 2027 at 14:05 UTC');
    expect(formatTime('de', Date.UTC(2027, 2, 12, 14, 5))).toBe('12. März 2027 um 14:05 UTC');
  });
});
