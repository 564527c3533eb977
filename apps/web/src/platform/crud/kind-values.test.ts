import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { parsePoint, parsePolygon, polygonText, sketchPolygon } from './geo';
import {
  dateRangeText,
  dateRangeToForm,
  dateRangeToWire,
  formatMoney,
  htmlToText,
  isPlayableVideo,
  numberText,
  prettyJson,
  unitOf,
} from './values';

describe('date ranges', () => {
  it('read the wire text into the range picker’s two days and back', () => {
    const range = dateRangeToForm('2026-01-01,2026-03-31');
    expect(range?.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-01-01', '2026-03-31']);
    expect(dateRangeToWire(range)).toBe('2026-01-01,2026-03-31');
    expect(dateRangeToWire([dayjs('2026-02-03T10:00:00'), dayjs('2026-02-04')])).toBe(
      '2026-02-03,2026-02-04',
    );
  });

  it('are nothing until both days are there', () => {
    expect(dateRangeToForm('2026-01-01')).toBeUndefined();
    expect(dateRangeToForm('2026-01-01,2026-01-02,2026-01-03')).toBeUndefined();
    expect(dateRangeToForm('x,y')).toBeUndefined();
    expect(dateRangeToWire([dayjs('2026-01-01'), null])).toBe('');
    expect(dateRangeToWire(null)).toBe('');
    // typed text is sent as it is (the shared rule says what is wrong with it)
    expect(dateRangeToWire('2026-03-31,2026-01-01')).toBe('2026-03-31,2026-01-01');
  });

  it('read as from ~ to', () => {
    expect(dateRangeText('2026-01-01,2026-03-31')).toBe('2026-01-01 ~ 2026-03-31');
  });
});

describe('amounts and units', () => {
  it('format an amount with grouped thousands and two decimals, digit for digit', () => {
    expect(formatMoney('100.50')).toBe('100.50');
    expect(formatMoney(1234.5)).toBe('1,234.50');
    expect(formatMoney('1234567')).toBe('1,234,567.00');
    expect(formatMoney('-9876543.2')).toBe('-9,876,543.20');
    expect(formatMoney('0.5')).toBe('0.50');
    expect(formatMoney(0)).toBe('0.00');
    // beyond what a double keeps exactly: the text is not rounded through a float
    expect(formatMoney('999999999999999.99')).toBe('999,999,999,999,999.99');
    expect(formatMoney('1.005')).toBe('1.01');
    expect(formatMoney('abc')).toBe('abc');
  });

  it('take the field’s unit, else the kind’s (money: 元)', () => {
    expect(unitOf({ type: 'money' })).toEqual({ zh: '元', en: 'CNY' });
    expect(unitOf({ type: 'money', unit: { zh: '万元', en: '10k CNY' } })?.zh).toBe('万元');
    expect(unitOf({ type: 'decimal' })).toBeUndefined();
    expect(numberText({ type: 'money' }, '1200.5', 'zh')).toBe('1,200.50 元');
    expect(numberText({ type: 'money' }, '1200.5', 'en')).toBe('1,200.50 CNY');
    expect(numberText({ type: 'decimal', unit: { zh: '亩', en: 'mu' } }, 3.5, 'zh')).toBe('3.5 亩');
    expect(numberText({ type: 'int' }, 7, 'en')).toBe('7');
  });
});

describe('map kinds', () => {
  it('read a point and a polygon', () => {
    expect(parsePoint('112.938814, 28.228209')).toEqual([112.938814, 28.228209]);
    expect(parsePoint('112.9')).toBeUndefined();
    expect(parsePoint('east,north')).toBeUndefined();
    expect(parsePolygon('[[1,2],[3,4],[5,6]]')).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(parsePolygon('[[1,2],[3]]')).toBeUndefined();
    expect(parsePolygon('[[1,2')).toBeUndefined();
    expect(polygonText('[[1,2],[3,4],[5,6]]')).toBe('[\n  [1, 2],\n  [3, 4],\n  [5, 6]\n]');
    expect(polygonText('not json')).toBe('not json');
  });

  it('sketch a polygon scaled to fit the box, centred, north up, proportions kept', () => {
    // a 2 × 1 degree rectangle in a 100 × 100 box with 10 of padding: 80 wide, 40 high, centred
    const points = sketchPolygon(
      [
        [110, 20],
        [112, 20],
        [112, 21],
        [110, 21],
      ],
      100,
      100,
      10,
    );
    expect(points).toBe('10,70 90,70 90,30 10,30');
  });

  it('sketch a tall shape by its height and a flat one along its length', () => {
    // 1 × 4 degrees in 60 × 40: 10 per degree (the height decides), 10 wide, centred at 30
    expect(
      sketchPolygon(
        [
          [0, 0],
          [1, 0],
          [0.5, 4],
        ],
        60,
        40,
        0,
      ),
    ).toBe('25,40 35,40 30,0');
    // every corner on one line of latitude: no height to scale by
    expect(
      sketchPolygon(
        [
          [0, 5],
          [1, 5],
          [2, 5],
        ],
        100,
        20,
        0,
      ),
    ).toBe('0,10 50,10 100,10');
  });
});

describe('text of other kinds', () => {
  it('formatted text reads as its plain text, cut at 40 characters', () => {
    expect(htmlToText('<p>第1段<strong>加粗</strong></p><p>a &amp; b&nbsp;&lt;c&gt; &#x4e2d;</p>')).toBe(
      '第1段加粗 a & b <c> 中',
    );
    expect(htmlToText(`<p>${'字'.repeat(50)}</p>`)).toBe(`${'字'.repeat(40)}…`);
    expect(htmlToText('<script>alert(1)</script><p>ok</p>')).toBe('ok');
  });

  it('JSON is indented; other text is left as it is', () => {
    expect(prettyJson('{"a":1,"b":[1,2]}')).toBe('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson('{bad')).toBe('{bad');
  });

  it('plays only http(s) .mp4 / .webm files in place', () => {
    expect(isPlayableVideo('https://v.example.com/a/b.MP4?t=1')).toBe(true);
    expect(isPlayableVideo('http://v.example.com/a.webm')).toBe(true);
    expect(isPlayableVideo('https://v.example.com/live.m3u8')).toBe(false);
    expect(isPlayableVideo('rtsp://cam.example.com/a.mp4')).toBe(false);
    expect(isPlayableVideo('not a url')).toBe(false);
  });
});
