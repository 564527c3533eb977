/** /dict-horizontal/index — dictionaries and entries side by side. */
import { DictManager } from './DictManager';

export default function DictHorizontalPage() {
  return <DictManager kind="dict" layout="horizontal" />;
}
