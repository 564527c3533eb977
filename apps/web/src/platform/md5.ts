import md5 from 'blueimp-md5';

/** Lower-case hex md5 of a UTF-8 string: passwords are sent hashed (spec §5). */
export function md5Hex(value: string): string {
  return md5(value);
}
