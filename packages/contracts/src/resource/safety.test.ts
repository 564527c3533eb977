import { describe, expect, it } from 'vitest';
import { gbDeviceIdProblem } from './formats';
import { STREAM_KIND, streamPlayer } from './safety';

describe('streamPlayer: which player a camera’s stream needs', () => {
  it('goes by the camera’s stream kind, else by the address', () => {
    expect(streamPlayer('https://cam.example.com/live/1.m3u8')).toBe('hls');
    expect(streamPlayer('http://cam.example.com/live/1.flv?token=x')).toBe('flv');
    expect(streamPlayer('http://cam.example.com/live/1', STREAM_KIND.flv)).toBe('flv');
    expect(streamPlayer('http://cam.example.com/live/1.flv', STREAM_KIND.hls)).toBe('hls');
    expect(streamPlayer('http://cam.example.com/live/1')).toBe('none');
  });
  it('plays a stream of the console’s own server (the demo streams), never a schemeless other site', () => {
    expect(streamPlayer('/demo-video/gate/index.m3u8')).toBe('hls');
    expect(streamPlayer('/demo-video/gate/index.m3u8', STREAM_KIND.hls)).toBe('hls');
    expect(streamPlayer('//evil.example/live.m3u8')).toBe('none');
  });
  it('a browser plays no RTSP or RTMP', () => {
    expect(streamPlayer('rtsp://cam.example.com/stream1')).toBe('none');
    expect(streamPlayer('rtmp://cam.example.com/live/1.flv', STREAM_KIND.flv)).toBe('none');
    expect(streamPlayer('http://gw.example.com/1.m3u8', STREAM_KIND.rtsp)).toBe('none');
  });
});

describe('gbDeviceIdProblem: a GB/T 28181 video device code', () => {
  it.each([
    ['43010000001320000001', null],
    ['11000000001310000001', null],
    ['82000000001180000001', null],
    ['4301000000132000001', 'format'],
    ['4301000000132000000A', 'format'],
    ['83010000001320000001', 'region'],
    ['91010000001320000001', 'region'],
    ['43010000001340000001', 'type'],
    ['43010000002160000001', 'type'],
  ])('%s → %s', (id, why) => {
    expect(gbDeviceIdProblem(id)).toBe(why);
  });
});
