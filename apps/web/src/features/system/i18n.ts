/** Registers the system screens' strings when one of their chunks loads (so /login never carries them). */
import { i18n } from '../../platform/i18n';
import { sysEn, sysZh } from './strings';

i18n.addResourceBundle('zh', 'translation', { sys: sysZh }, true, false);
i18n.addResourceBundle('en', 'translation', { sys: sysEn }, true, false);
