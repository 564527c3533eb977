/**
 * antd's Input and Password without the Input namespace object, which statically pulls TextArea, Search,
 * OTP and Group into every page that uses Input. For the light public pages (/login, /lock).
 */
export type { InputRef } from 'antd/es/input/Input';
export { default as Input } from 'antd/es/input/Input';
export { default as Password } from 'antd/es/input/Password';
