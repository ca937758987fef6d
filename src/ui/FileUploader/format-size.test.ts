import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size';

describe('formatSize', () => {
  it('shows nothing as 0 Bytes', () => {
    expect(formatSize(0)).toBe('0 Bytes');
  });

  it('shows small files in bytes', () => {
    expect(formatSize(1)).toBe('1 Bytes');
    expect(formatSize(1023)).toBe('1023 Bytes');
  });

  it('uses 1024 units', () => {
    expect(formatSize(1024)).toBe('1 KB');
    expect(formatSize(1024 * 1024)).toBe('1 MB');
    expect(formatSize(1024 ** 3)).toBe('1 GB');
  });

  it('keeps one decimal', () => {
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 * 1024 * 2.25)).toBe('2.3 MB');
    expect(formatSize(1100)).toBe('1.1 KB');
  });

  it('shows the upload limit as 25 MB', () => {
    expect(formatSize(26214400)).toBe('25 MB');
  });

  it('moves to the next unit rather than show 1024 of one', () => {
    expect(formatSize(1024 * 1024 - 1)).toBe('1 MB');
  });

  it('stays in gigabytes past them', () => {
    expect(formatSize(1024 ** 4)).toBe('1024 GB');
  });

  it('treats nonsense as nothing', () => {
    expect(formatSize(-5)).toBe('0 Bytes');
    expect(formatSize(Number.NaN)).toBe('0 Bytes');
  });
});
