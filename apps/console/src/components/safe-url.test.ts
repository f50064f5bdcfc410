import { describe, expect, it } from 'vitest';
import { webUrl } from './safe-url';

describe('webUrl', () => {
  it('keeps absolute http and https URLs', () => {
    expect(webUrl('https://clips.example.test/1?t=3#x')).toBe('https://clips.example.test/1?t=3#x');
    expect(webUrl('http://example.test')).toBe('http://example.test/');
    expect(webUrl('HTTPS://EXAMPLE.test/A')).toBe('https://example.test/A');
  });

  it('refuses every other scheme, however it is spelled', () => {
    for (const raw of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://example.test/x']) {
      expect(webUrl(raw), raw).toBeNull();
    }
  });

  it('refuses relative and unparsable addresses', () => {
    for (const raw of ['/console/', '//evil.test/x', 'clips/1', '', '<img src=x onerror=alert(1)>', 'http//missing-colon']) {
      expect(webUrl(raw), raw).toBeNull();
    }
  });
});
