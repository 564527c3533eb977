import { describe, expect, it } from 'vitest';
import {
  addSub,
  addTop,
  buttonAt,
  byteLimit,
  bytesOf,
  canAddSub,
  canAddTop,
  canMove,
  emptyMenu,
  menuOf,
  menuText,
  menuWire,
  move,
  parseMenu,
  removeAt,
  rename,
  retype,
  selOfPath,
  setField,
} from './menu-editor';

describe('the custom-menu editor', () => {
  it('adds at most 3 top-level buttons and 5 sub-buttons each, choosing the new one', () => {
    let m = emptyMenu();
    for (let k = 0; k < 3; k++) {
      expect(canAddTop(m)).toBe(true);
      const r = addTop(m, `菜单${k}`);
      expect(r.sel).toEqual({ i: k });
      m = r.menu;
    }
    expect(canAddTop(m)).toBe(false);
    expect(addTop(m, 'x').menu).toBe(m);
    for (let k = 0; k < 5; k++) {
      const r = addSub(m, 0, `子${k}`);
      expect(r.sel).toEqual({ i: 0, j: k });
      m = r.menu;
    }
    expect(canAddSub(m, 0)).toBe(false);
    expect(m.button[0].sub_button).toHaveLength(5);
  });

  it('writes a button’s keys in one order: type, name, then its type’s fields', () => {
    let { menu, sel } = addTop(emptyMenu(), '官网');
    menu = retype(menu, sel, 'view');
    menu = setField(menu, sel, 'url', 'https://www.example.com/');
    menu = rename(menu, sel, '村官网');
    expect(menuWire(menu)).toBe(
      '{"button":[{"type":"view","name":"村官网","url":"https://www.example.com/"}]}',
    );
    menu = retype(menu, sel, 'miniprogram');
    expect(Object.keys(buttonAt(menu, sel)!)).toEqual(['type', 'name', 'appid', 'pagepath', 'url']);
    // the URL is kept as the mini-program's fallback
    expect(buttonAt(menu, sel)?.url).toBe('https://www.example.com/');
  });

  it('a first sub-button takes its parent’s action; the parent keeps its name alone', () => {
    let { menu } = addTop(emptyMenu(), '服务');
    menu = setField(menu, { i: 0 }, 'key', 'SERVICE');
    const r = addSub(menu, 0, '办事指南');
    expect(r.menu.button[0]).toEqual({
      name: '服务',
      sub_button: [{ type: 'click', name: '办事指南', key: 'SERVICE' }],
    });
    // a parent has no action to set
    expect(setField(r.menu, { i: 0 }, 'key', 'x')).toBe(r.menu);
    expect(retype(r.menu, { i: 0 }, 'view')).toBe(r.menu);
    // removing its last sub-button makes it a button of its own again
    const back = removeAt(r.menu, { i: 0, j: 0 });
    expect(back.sel).toEqual({ i: 0 });
    expect(back.menu.button[0]).toEqual({ type: 'click', name: '服务', key: '' });
  });

  it('moves buttons among their siblings, the choice following; removes and chooses a neighbour', () => {
    let menu = addTop(addTop(emptyMenu(), 'A').menu, 'B').menu;
    menu = addSub(addSub(menu, 1, 'b1').menu, 1, 'b2').menu;
    expect(canMove(menu, { i: 0 }, -1)).toBe(false);
    const r = move(menu, { i: 0 }, 1);
    expect(r.menu.button.map((b) => b.name)).toEqual(['B', 'A']);
    expect(r.sel).toEqual({ i: 1 });
    const s = move(r.menu, { i: 0, j: 1 }, -1);
    expect(s.menu.button[0].sub_button?.map((b) => b.name)).toEqual(['b2', 'b1']);
    expect(s.sel).toEqual({ i: 0, j: 0 });
    expect(canMove(s.menu, { i: 0, j: 1 }, 1)).toBe(false);
    const d = removeAt(s.menu, { i: 1 });
    expect(d.menu.button).toHaveLength(1);
    expect(d.sel).toEqual({ i: 0 });
    expect(removeAt(d.menu, { i: 0 }).sel).toBeNull();
  });

  it('counts bytes as WeChat does: 21 Chinese characters are 63 bytes, past a sub-button’s 60', () => {
    expect(byteLimit('name', { i: 0 })).toBe(16);
    expect(byteLimit('name', { i: 0, j: 0 })).toBe(60);
    expect(byteLimit('key', { i: 0 })).toBe(128);
    expect(byteLimit('url', { i: 0 })).toBe(1024);
    expect(bytesOf('村'.repeat(21), 60)).toEqual({ bytes: 63, limit: 60, over: true });
    expect(bytesOf('村'.repeat(20), 60).over).toBe(false);
  });

  it('reads a problem’s path as the button it names', () => {
    expect(selOfPath('button[1].sub_button[0].name')).toEqual({ sel: { i: 1, j: 0 }, field: 'name' });
    expect(selOfPath('button[2].url')).toEqual({ sel: { i: 2 }, field: 'url' });
    expect(selOfPath('button')).toBeNull();
    expect(selOfPath(undefined)).toBeNull();
  });

  it('reads the JSON view back only when it parses and passes, else says why', () => {
    const good = { button: [{ name: '服务', sub_button: [{ type: 'click', name: '办事', key: 'K' }] }] };
    const parsed = parseMenu(JSON.stringify(good));
    expect(parsed).toEqual({ menu: good });
    const broken = parseMenu('{"button": [');
    expect('error' in broken && broken.error.zh).toMatch(/^JSON 格式错误/);
    const long = parseMenu(
      JSON.stringify({
        button: [{ name: '服务', sub_button: [{ type: 'click', name: '村'.repeat(21), key: 'K' }] }],
      }),
    );
    expect(long).toMatchObject({ path: 'button[0].sub_button[0].name' });
    expect('error' in long && long.error.zh).toContain('当前 63 个字节');
    // keys WeChat does not take are left out
    expect(parseMenu('{"button":[{"type":"click","name":"a","key":"k","x":"y"}]}')).toEqual({
      menu: { button: [{ type: 'click', name: 'a', key: 'k' }] },
    });
  });

  it('shows the JSON indented and reads a released menu, or none', () => {
    const m = { button: [{ type: 'click', name: 'a', key: 'k' }] };
    expect(JSON.parse(menuText(m))).toEqual(m);
    expect(menuText(m)).toContain('\n  "button"');
    expect(menuOf(JSON.stringify(m))).toEqual(m);
    expect(menuOf('not json')).toEqual(emptyMenu());
    expect(menuOf(null)).toEqual(emptyMenu());
  });
});
