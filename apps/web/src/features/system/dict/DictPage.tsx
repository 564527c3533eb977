/** /system/dict — the platform dictionaries. */
import { DictManager } from './DictManager';

export default function DictPage() {
  return <DictManager kind="dict" layout="dialog" />;
}
