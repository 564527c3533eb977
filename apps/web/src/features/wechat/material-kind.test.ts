import { WX_MATERIAL } from '@smart/contracts/wechat-rules';
import { describe, expect, it } from 'vitest';
import { materialFileProblem, materialKindOf } from './material-kind';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('the materials screen’s check before an upload', () => {
  it('reads the kind from the first bytes, never the name', () => {
    expect(materialKindOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]), 100)).toBe('png');
    expect(materialKindOf(bytes([0xff, 0xd8, 0xff, 0xe0]), 100)).toBe('jpg');
    expect(materialKindOf(bytes('GIF89a'), 100)).toBe('gif');
    expect(materialKindOf(bytes('BM'), 100)).toBe('bmp');
    expect(materialKindOf(bytes('#!AMR\n'), 100)).toBe('amr');
    expect(materialKindOf(bytes('RIFF', [0, 0, 0, 0], 'WAVE'), 100)).toBe('wav');
    expect(materialKindOf(bytes('ID3'), 100)).toBe('mp3');
    expect(materialKindOf(bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]), 100)).toBe('wma');
    expect(materialKindOf(bytes([0, 0, 0, 0x20], 'ftyp', 'isom'), 100)).toBe('mp4');
    expect(materialKindOf(bytes([0, 0, 0, 0x20], 'ftyp', 'qt  '), 100)).toBeNull();
    expect(materialKindOf(bytes('hello world'), 100)).toBeNull();
  });

  it('refuses what WeChat would: a thumbnail over 64 KB, a PNG as a thumbnail, a text as an image', async () => {
    const jpg = [0xff, 0xd8, 0xff, 0xe0];
    const big = new Blob([new Uint8Array(jpg), new Uint8Array(64 * 1024)]);
    expect((await materialFileProblem(WX_MATERIAL.thumb, big))?.zh).toBe('缩略图不超过 64KB,支持 jpg');
    expect(await materialFileProblem(WX_MATERIAL.thumb, new Blob([new Uint8Array(jpg)]))).toBeNull();
    const png = new Blob([bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a])]);
    expect(await materialFileProblem(WX_MATERIAL.thumb, png)).not.toBeNull();
    expect(await materialFileProblem(WX_MATERIAL.image, png)).toBeNull();
    expect(await materialFileProblem(WX_MATERIAL.image, new Blob(['just text']))).not.toBeNull();
  });
});
