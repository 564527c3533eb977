import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type ExcelColumn, sendXlsx } from './excel';

const COLUMNS: ExcelColumn[] = [
  { key: 'name', header: '姓名' },
  { key: 'n', header: '序号' },
  { key: 'note', header: '备注' },
];
/** 100 000 rows: a file far larger than what the streams between the writer and the client hold (archiver keeps up to 1 MB) */
const BATCHES = 200;
const ROWS = 500;

/** a reply that keeps what it is sent: the stream of the file */
function fakeReply() {
  const sent: { body?: Readable } = {};
  const reply = {
    header: () => reply,
    send: (body: Readable) => {
      sent.body = body;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

/** batches of rows (arrays in the columns' order, or records), counting how many were asked for */
function source(kind: 'arrays' | 'records') {
  const seen = { pulled: 0, finished: false };
  async function* batches() {
    try {
      for (let b = 0; b < BATCHES; b++) {
        seen.pulled++;
        const rows = Array.from({ length: ROWS }, (_, i) => {
          const n = b * ROWS + i;
          // text that compresses as little as a real sheet's does (the file outgrows the streams' buffers)
          const text = createHash('sha256').update(String(n)).digest('hex');
          const cells = [`村民 ${n} 号 ${text}`, n, n === 0 ? '=1+1' : null];
          return kind === 'arrays' ? cells : { name: cells[0], n: cells[1], note: cells[2] };
        });
        yield rows;
      }
    } finally {
      seen.finished = true;
    }
  }
  return { seen, batches: batches() as AsyncIterable<unknown[][]> };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sendXlsx', () => {
  it.each(['arrays', 'records'] as const)(
    'reads the rows (%s) as the client takes the file: a client that reads nothing holds it back',
    async (kind) => {
      const { seen, batches } = source(kind);
      const { reply, sent } = fakeReply();
      await sendXlsx(reply, 'villagers', COLUMNS, batches);
      await settle(300);
      // what was written waits to be compressed and taken: the reading stops well before the end
      expect(seen.pulled).toBeLessThan(BATCHES / 2);
      const chunks: Buffer[] = [];
      for await (const c of sent.body!) chunks.push(c as Buffer);
      expect(seen.pulled).toBe(BATCHES);
      // the rows' cells are checked once (reading 100 000 rows back takes seconds)
      if (kind === 'records') return expect(chunks[0].readUInt32LE(0)).toBe(0x04034b50);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
      const sheet = wb.worksheets[0];
      expect(sheet.name).toBe('villagers');
      expect(sheet.rowCount).toBe(BATCHES * ROWS + 1);
      expect(sheet.getRow(1).values).toEqual([undefined, '姓名', '序号', '备注']);
      // a formula-looking text is kept as text
      expect(sheet.getRow(2).values).toEqual([undefined, expect.stringMatching(/^村民 0 号/), 0, "'=1+1"]);
      expect(sheet.getRow(BATCHES * ROWS + 1).getCell(2).value).toBe(BATCHES * ROWS - 1);
    },
    // 100 000 rows written and read back: seconds on a busy machine
    30_000,
  );

  it('stops reading when the client goes away', async () => {
    const { seen, batches } = source('arrays');
    const { reply, sent } = fakeReply();
    await sendXlsx(reply, 'villagers', COLUMNS, batches);
    await settle(100);
    sent.body!.destroy();
    await settle(300);
    expect(seen.finished).toBe(true);
    expect(seen.pulled).toBeLessThan(BATCHES / 2);
  }, 30_000);
});
