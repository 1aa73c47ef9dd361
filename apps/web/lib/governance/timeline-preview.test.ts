import { describe, expect, it } from 'vitest';
import { previewTimeline } from './timeline-preview';

const now = Date.parse('2026-03-01T10:00:00.000Z');

describe('previewTimeline', () => {
  it('opens at once and ends after the duration when no start is chosen', () => {
    expect(previewTimeline({ now, start: '', durationHours: '24' })).toEqual({
      createdAt: '2026-03-01T10:00:00.000Z',
      startTime: '2026-03-01T10:00:00.000Z',
      endTime: '2026-03-02T10:00:00.000Z',
    });
  });

  it('starts at the chosen local time (fractions of hours count)', () => {
    const start = new Date(now + 2 * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T${pad(start.getHours())}:${pad(start.getMinutes())}`;
    const t = previewTimeline({ now, start: local, durationHours: '1.5' });
    expect(t?.startTime).toBe('2026-03-01T12:00:00.000Z');
    expect(t?.endTime).toBe('2026-03-01T13:30:00.000Z');
  });

  it('has nothing to show for a duration that is empty, not a number or not above 0', () => {
    for (const durationHours of ['', 'abc', '0', '-2'])
      expect(previewTimeline({ now, start: '', durationHours })).toBeNull();
  });
});
