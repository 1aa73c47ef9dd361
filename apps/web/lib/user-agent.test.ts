import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  operaMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
};

describe('describeUserAgent', () => {
  it.each([
    ['chromeWindows', 'Chrome on Windows'],
    ['edgeWindows', 'Edge on Windows'],
    ['operaMac', 'Opera on macOS'],
    ['firefoxLinux', 'Firefox on Linux'],
    ['safariMac', 'Safari on macOS'],
    ['safariIphone', 'Safari on iOS'],
    ['firefoxIphone', 'Firefox on iOS'],
    ['chromeAndroid', 'Chrome on Android'],
    ['chromebook', 'Chrome on ChromeOS'],
    ['headless', 'Headless Chrome on Linux'],
  ] as const)('names %s “%s”', (key, expected) => {
    expect(describeUserAgent(UA[key])).toBe(expected);
  });

  it('names a browser or a system alone when only one is known', () => {
    expect(describeUserAgent('curl/8.5.0')).toBe('curl');
    expect(describeUserAgent('SomeApp/2.1 (Linux)')).toBe('Linux');
  });

  it('falls back to the first word of an unknown client, at most 40 characters', () => {
    expect(describeUserAgent('PlenumTest/1.0')).toBe('PlenumTest');
    expect(describeUserAgent('python-requests/2.32.3')).toBe('python-requests');
    expect(describeUserAgent(`${'x'.repeat(60)}/1`)).toBe('x'.repeat(40));
  });

  it('says Unknown device without a header', () => {
    for (const ua of [null, undefined, '', '   ']) expect(describeUserAgent(ua)).toBe('Unknown device');
  });
});
