/** Registers the workflow screens' strings when one of their chunks loads (so /login never carries them). */
import { i18n } from '../../platform/i18n';
import { wfEn, wfZh } from './strings';

i18n.addResourceBundle('zh', 'translation', { wf: wfZh }, true, false);
i18n.addResourceBundle('en', 'translation', { wf: wfEn }, true, false);
