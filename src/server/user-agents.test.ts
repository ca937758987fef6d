import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agents';

describe('describeUserAgent', () => {
  it('names the browser with its major version and the system', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      ),
    ).toBe('Safari 17 on macOS');
  });

  it('answers null for nothing it recognises', () => {
    expect(describeUserAgent(null)).toBeNull();
    expect(describeUserAgent('')).toBeNull();
    expect(describeUserAgent('curl/8.5.0')).toBeNull();
  });
});
