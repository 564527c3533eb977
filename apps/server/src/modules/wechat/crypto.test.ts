import { describe, expect, it } from 'vitest';
import { sha1Signature, signatureMatches, wxDecrypt, wxEncrypt } from './crypto';
import { parseWxXml, wxXml } from './xml';

const KEY = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const APP = 'wx1234567890abcdef';

describe('WeChat callback crypto', () => {
  it('signs the sorted parts with sha1, checked in constant time', () => {
    // WeChat's documented example: token, timestamp, nonce sorted and joined
    expect(sha1Signature('b', 'a', 'c')).toBe(sha1Signature('a', 'b', 'c'));
    expect(signatureMatches(sha1Signature('t', '1', 'n'), 't', '1', 'n')).toBe(true);
    expect(signatureMatches(sha1Signature('t', '1', 'n'), 't', '2', 'n')).toBe(false);
    expect(signatureMatches('short', 't', '1', 'n')).toBe(false);
    expect(signatureMatches(undefined, 't')).toBe(false);
  });

  it('encrypts as WeChat does: random 16, length, message, AppID, padded to 32; decrypts only its own', () => {
    const text = '<xml><Content><![CDATA[你好]]></Content></xml>';
    const enc = wxEncrypt(KEY, APP, text, Buffer.alloc(16, 7));
    expect(Buffer.from(enc, 'base64').length % 32).toBe(0);
    expect(wxDecrypt(KEY, APP, enc)).toBe(text);
    expect(wxDecrypt(KEY, 'wx0000000000000000', enc)).toBeNull();
    expect(wxDecrypt('ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210abcdefg', APP, enc)).toBeNull();
    expect(wxDecrypt(KEY, APP, 'not base64 at all')).toBeNull();
  });
});

describe('callback XML', () => {
  it('reads CDATA, plain text with entities and one nested level; refuses what is not WeChat’s', () => {
    const x = parseWxXml(
      '<xml><ToUserName><![CDATA[gh]]></ToUserName><CreateTime>123</CreateTime><Content>a &lt;b&gt; &amp;</Content><ScanCodeInfo><ScanType><![CDATA[qrcode]]></ScanType></ScanCodeInfo></xml>',
    );
    expect(x).toEqual({
      ToUserName: 'gh',
      CreateTime: '123',
      Content: 'a <b> &',
      ScanCodeInfo: { ScanType: 'qrcode' },
    });
    expect(
      parseWxXml('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><xml><A>&e;</A></xml>'),
    ).toBeNull();
    expect(parseWxXml('<xml><A>1</B></xml>')).toBeNull();
    expect(parseWxXml('no')).toBeNull();
  });

  it('writes text in CDATA (a ]]> inside split) and numbers as they are', () => {
    const xml = wxXml({ Content: 'a]]>b', CreateTime: 5 });
    expect(xml).toBe('<xml><Content><![CDATA[a]]]]><![CDATA[>b]]></Content><CreateTime>5</CreateTime></xml>');
    expect(parseWxXml(xml)).toEqual({ Content: 'a]]>b', CreateTime: '5' });
    const tricky = wxXml({ Content: '</Content><MsgType>event</MsgType>', MsgType: 'text' });
    expect(parseWxXml(tricky)).toEqual({ Content: '</Content><MsgType>event</MsgType>', MsgType: 'text' });
  });
});
