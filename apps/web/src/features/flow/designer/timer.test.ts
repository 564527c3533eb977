// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { checkTimer, TIMER_PRESETS, timerOf } from './timer';

const from = new Date('2026-03-01T08:00:00+08:00');

describe('timer values', () => {
  it('accepts the ISO 8601 durations, dates and cycles the server accepts', () => {
    for (const v of ['PT1H', 'P1D', 'P3D', 'P1DT12H', 'PT30M', 'P1W', 'PT0S'])
      expect(checkTimer('timeDuration', v, from), v).toBeNull();
    for (const v of ['2026-06-01T09:00:00+08:00', '2026-06-01', '2026-06-01T01:00:00Z'])
      expect(checkTimer('timeDate', v, from), v).toBeNull();
    for (const v of ['R/P1D', 'R3/PT10M', 'R/2026-01-01T09:00:00+08:00/P1D', 'R5/PT0S'])
      expect(checkTimer('timeCycle', v, from), v).toBeNull();
  });

  it('refuses what is not ISO 8601 for its kind', () => {
    for (const v of ['P1X', 'P', 'PT', '1 day', '3d', 'R'])
      expect(checkTimer('timeDuration', v, from), v).toEqual({ kind: 'invalid' });
    expect(checkTimer('timeDate', 'P1D', from)).toEqual({ kind: 'invalid' });
    expect(checkTimer('timeDate', '2026-13-45', from)).toEqual({ kind: 'invalid' });
    expect(checkTimer('timeCycle', 'every day', from)).toEqual({ kind: 'invalid' });
  });

  it('is required', () => {
    expect(checkTimer('timeDuration', '  ', from)).toEqual({ kind: 'required' });
  });

  it('refuses a cycle for ever with no interval (the library would never return) instead of hanging', () => {
    for (const v of [
      'R/PT0S',
      'R/P0D',
      'R/PT0H0M',
      'R/2000-01-01T00:00:00Z/PT0S',
      'R/2000-01-01T00:00:00Z/PT0.001S',
    ])
      expect(checkTimer('timeCycle', v, from), v).toEqual({ kind: 'zeroInterval' });
  });

  it('leaves values with ${…} to the engine, checking a whole expression', () => {
    expect(checkTimer('timeDuration', '${wait}', from)).toBeNull();
    expect(checkTimer('timeDuration', 'P${days}D', from)).toBeNull();
    expect(checkTimer('timeDuration', '${wait', from)).toEqual({
      kind: 'expression',
      error: { kind: 'notWrapped' },
    });
  });

  it('every preset is valid for its kind', () => {
    for (const p of TIMER_PRESETS) expect(checkTimer(p.kind, p.value, from), p.id).toBeNull();
  });
});

describe('timerOf', () => {
  it('reads the kind holding a value, in the server order', () => {
    expect(timerOf({ $type: 'bpmn:TimerEventDefinition', timeDuration: { body: 'P1D' } })).toEqual({
      kind: 'timeDuration',
      value: 'P1D',
    });
    expect(timerOf({ $type: 'x', timeDuration: { body: 'P1D' }, timeCycle: { body: 'R/P1D' } })).toEqual({
      kind: 'timeCycle',
      value: 'R/P1D',
    });
    expect(timerOf({ $type: 'x', timeDate: { body: '' } })).toEqual({ kind: 'timeDate', value: '' });
    expect(timerOf({ $type: 'x' })).toEqual({ kind: 'timeDuration', value: '' });
  });
});
