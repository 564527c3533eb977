import { randomBytes } from 'node:crypto';

/**
 * The sandbox's drafts, publishing, permanent materials, article images and comments (草稿箱, 发布能力, 永久素材,
 * 图文消息内的图片, 图文留言), as WeChat documents them, for the public account's drafts and publishing: what a call
 * sends is kept, publishing goes through the statuses a test queues (1 publishing, then 0 success, or 2/3/4 with
 * `fail_idx`), and the limits WeChat checks answer its errcodes. Answers are plain objects (JSON), or a Buffer
 * for a material's file.
 */

export interface NewsItem {
  title?: string;
  author?: string;
  digest?: string;
  content?: string;
  content_source_url?: string;
  thumb_media_id?: string;
  need_open_comment?: number;
  only_fans_can_comment?: number;
  url?: string;
}

interface Material {
  media_id: string;
  type: 'image' | 'voice' | 'video' | 'thumb';
  name: string;
  data: Buffer;
  url?: string;
  title?: string;
  introduction?: string;
  update_time: number;
}

interface Publish {
  publish_id: string;
  media_id: string;
  msg_data_id: number;
  statuses: number[];
  fail_idx: number[];
  article_id?: string;
}

interface Comment {
  user_comment_id: number;
  openid: string;
  create_time: number;
  content: string;
  comment_type: number;
  reply?: { content: string; create_time: number };
}

const err = (errcode: number, errmsg: string) => ({ errcode, errmsg });
const ok = () => ({ errcode: 0, errmsg: 'ok' });
const now = () => Math.floor(Date.now() / 1000);
const mediaId = () => randomBytes(24).toString('base64url');

/** WeChat's limits on permanent materials (bytes) and the file kinds each takes. */
const MATERIAL: Record<Material['type'], { max: number; ext: RegExp }> = {
  image: { max: 10 * 1024 * 1024, ext: /\.(bmp|png|jpe?g|gif)$/i },
  voice: { max: 2 * 1024 * 1024, ext: /\.(mp3|wma|wav|amr)$/i },
  video: { max: 10 * 1024 * 1024, ext: /\.mp4$/i },
  thumb: { max: 64 * 1024, ext: /\.jpe?g$/i },
};

/** One file part of a multipart body (`media`), and the other fields as text. */
export function multipart(contentType: string | undefined, raw: Buffer) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  if (!boundary) return null;
  const sep = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields: Record<string, string> = {};
  let file: { name: string; filename: string; data: Buffer } | undefined;
  let at = raw.indexOf(sep);
  while (at !== -1) {
    const next = raw.indexOf(sep, at + sep.length);
    if (next === -1) break;
    const part = raw.subarray(at + sep.length + 2, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd !== -1) {
      const head = part.subarray(0, headEnd).toString('utf8');
      const data = part.subarray(headEnd + 4);
      const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (filename !== undefined) file = { name, filename, data };
      else fields[name] = data.toString('utf8');
    }
    at = next;
  }
  return { fields, file };
}

export class SandboxPublishing {
  readonly drafts = new Map<string, { news_item: NewsItem[]; update_time: number }>();
  readonly publishes = new Map<string, Publish>();
  /** published articles by article_id */
  readonly articles = new Map<string, { news_item: NewsItem[]; update_time: number; msg_data_id: number }>();
  readonly materials = new Map<string, Material>();
  /** images uploaded for article bodies (media/uploadimg): their URL → bytes */
  readonly images = new Map<string, Buffer>();
  readonly comments = new Map<string, Comment[]>();
  /** accounts without comment rights (88000) */
  readonly noComment = new Set<string>();
  private outcomes: { statuses: number[]; fail_idx: number[] }[] = [];
  private msgDataId = 1_000_000_000;

  /**
   * How the next publish goes: the statuses its `freepublish/get` answers in turn (the last one stays), and
   * the failed articles' places. Default: publishing once, then success.
   */
  nextPublish(statuses: number[], fail_idx: number[] = []) {
    this.outcomes.push({ statuses, fail_idx });
  }

  /** answers a call of this part, or undefined when the path is none of its */
  handle(
    appId: string,
    path: string,
    query: Record<string, string>,
    json: () => Record<string, unknown> | null | undefined,
    raw: Buffer,
    contentType: string | undefined,
  ): unknown {
    const b = () => json() ?? {};
    switch (path) {
      case 'cgi-bin/media/uploadimg': {
        const form = multipart(contentType, raw);
        const f = form?.file;
        if (!f) return err(41005, 'media data missing');
        if (!/\.(jpe?g|png)$/i.test(f.filename)) return err(40005, 'invalid file type');
        if (f.data.length > 1024 * 1024) return err(40006, 'invalid meida size');
        const url = `http://mmbiz.qpic.cn/sz_mmbiz_${f.filename.endsWith('png') ? 'png' : 'jpg'}/${mediaId()}/0`;
        this.images.set(url, f.data);
        return { url };
      }
      case 'cgi-bin/material/add_material': {
        const type = query.type as Material['type'];
        const rule = MATERIAL[type];
        if (!rule) return err(40004, 'invalid media type');
        const form = multipart(contentType, raw);
        const f = form?.file;
        if (!f) return err(41005, 'media data missing');
        if (!rule.ext.test(f.filename)) return err(40005, 'invalid file type');
        if (f.data.length > rule.max) return err(40006, 'invalid meida size');
        const m: Material = { media_id: mediaId(), type, name: f.filename, data: f.data, update_time: now() };
        if (type === 'image') m.url = `http://mmbiz.qpic.cn/sz_mmbiz_png/${m.media_id}/0`;
        if (type === 'video') {
          try {
            const d = JSON.parse(form.fields.description ?? '{}') as {
              title?: string;
              introduction?: string;
            };
            m.title = d.title;
            m.introduction = d.introduction;
          } catch {
            return err(47001, 'data format error');
          }
          if (!m.title) return err(47001, 'data format error');
        }
        this.materials.set(m.media_id, m);
        return { media_id: m.media_id, ...(m.url ? { url: m.url } : {}) };
      }
      case 'cgi-bin/material/get_material': {
        const m = this.materials.get(String(b().media_id));
        if (!m) return err(40007, 'invalid media_id');
        if (m.type === 'video')
          return {
            title: m.title,
            description: m.introduction,
            down_url: `http://sandbox.video/${m.media_id}.mp4`,
          };
        return m.data;
      }
      case 'cgi-bin/material/del_material':
        return this.materials.delete(String(b().media_id)) ? ok() : err(40007, 'invalid media_id');
      case 'cgi-bin/material/batchget_material': {
        const { type, offset, count } = b() as { type?: string; offset?: number; count?: number };
        if (!Number.isInteger(offset) || !Number.isInteger(count) || count! < 1 || count! > 20)
          return err(40008, 'invalid message type');
        const all = [...this.materials.values()].filter((m) => m.type === type);
        const item = all.slice(offset!, offset! + count!).map((m) => ({
          media_id: m.media_id,
          name: m.name,
          update_time: m.update_time,
          ...(m.url ? { url: m.url } : {}),
        }));
        return { total_count: all.length, item_count: item.length, item };
      }
      case 'cgi-bin/material/get_materialcount': {
        const count = (t: string) => [...this.materials.values()].filter((m) => m.type === t).length;
        return {
          voice_count: count('voice'),
          video_count: count('video'),
          image_count: count('image'),
          news_count: 0,
        };
      }
      case 'cgi-bin/draft/add': {
        const articles = b().articles as NewsItem[] | undefined;
        const problem = this.articlesProblem(articles);
        if (problem) return problem;
        const id = mediaId();
        this.drafts.set(id, { news_item: articles!, update_time: now() });
        return { media_id: id };
      }
      case 'cgi-bin/draft/get': {
        const d = this.drafts.get(String(b().media_id));
        return d ? { news_item: d.news_item } : err(40007, 'invalid media_id');
      }
      case 'cgi-bin/draft/update': {
        const { media_id, index, articles } = b() as {
          media_id?: string;
          index?: number;
          articles?: NewsItem;
        };
        const d = this.drafts.get(String(media_id));
        if (!d) return err(40007, 'invalid media_id');
        if (!Number.isInteger(index) || index! < 0 || index! >= d.news_item.length)
          return err(40114, 'invalid index value');
        const problem = this.articlesProblem(articles ? [articles] : undefined);
        if (problem) return problem;
        d.news_item[index!] = articles!;
        d.update_time = now();
        return ok();
      }
      case 'cgi-bin/draft/delete':
        return this.drafts.delete(String(b().media_id)) ? ok() : err(40007, 'invalid media_id');
      case 'cgi-bin/draft/batchget': {
        const { offset, count, no_content } = b() as { offset?: number; count?: number; no_content?: number };
        if (!Number.isInteger(offset) || !Number.isInteger(count) || count! < 1 || count! > 20)
          return err(40008, 'invalid param');
        const all = [...this.drafts.entries()];
        const item = all.slice(offset!, offset! + count!).map(([media_id, d]) => ({
          media_id,
          content: { news_item: d.news_item.map((n) => (no_content ? { ...n, content: undefined } : n)) },
          update_time: d.update_time,
        }));
        return { total_count: all.length, item_count: item.length, item };
      }
      case 'cgi-bin/draft/count':
        return { total_count: this.drafts.size };
      case 'cgi-bin/freepublish/submit': {
        const media_id = String(b().media_id);
        if (!this.drafts.has(media_id)) return err(40007, 'invalid media_id');
        const outcome = this.outcomes.shift() ?? { statuses: [1, 0], fail_idx: [] };
        const publish_id = String(2_247_483_647 + this.publishes.size);
        const msg_data_id = ++this.msgDataId;
        this.publishes.set(publish_id, {
          publish_id,
          media_id,
          msg_data_id,
          ...outcome,
          statuses: [...outcome.statuses],
        });
        return { errcode: 0, errmsg: 'ok', publish_id, msg_data_id };
      }
      case 'cgi-bin/freepublish/get': {
        const p = this.publishes.get(String(b().publish_id));
        if (!p) return err(48006, 'invalid publish_id');
        const status = p.statuses.length > 1 ? p.statuses.shift()! : p.statuses[0];
        if (status === 0 && !p.article_id) {
          const draft = this.drafts.get(p.media_id);
          p.article_id = mediaId();
          const news_item = (draft?.news_item ?? []).map((n, i) => ({
            ...n,
            url: `http://mp.weixin.qq.com/s?__biz=sandbox&mid=${p.msg_data_id}&idx=${i + 1}`,
          }));
          this.articles.set(p.article_id, { news_item, update_time: now(), msg_data_id: p.msg_data_id });
          this.drafts.delete(p.media_id);
        }
        const article = p.article_id ? this.articles.get(p.article_id) : undefined;
        return {
          publish_id: p.publish_id,
          publish_status: status,
          ...(status === 0 && article
            ? {
                article_id: p.article_id,
                article_detail: {
                  count: article.news_item.length,
                  item: article.news_item.map((n, i) => ({ idx: i + 1, article_url: n.url })),
                },
              }
            : {}),
          fail_idx: status >= 2 && status <= 4 ? p.fail_idx : [],
        };
      }
      case 'cgi-bin/freepublish/batchget': {
        const { offset, count } = b() as { offset?: number; count?: number };
        if (!Number.isInteger(offset) || !Number.isInteger(count) || count! < 1 || count! > 20)
          return err(40008, 'invalid param');
        const all = [...this.articles.entries()];
        const item = all.slice(offset!, offset! + count!).map(([article_id, a]) => ({
          article_id,
          content: { news_item: a.news_item },
          update_time: a.update_time,
        }));
        return { total_count: all.length, item_count: item.length, item };
      }
      case 'cgi-bin/freepublish/getarticle': {
        const a = this.articles.get(String(b().article_id));
        return a ? { news_item: a.news_item } : err(53600, 'invalid article_id');
      }
      case 'cgi-bin/freepublish/delete': {
        const { article_id, index } = b() as { article_id?: string; index?: number };
        const a = this.articles.get(String(article_id));
        if (!a) return err(53600, 'invalid article_id');
        if (!index) this.articles.delete(String(article_id));
        else if (index < 1 || index > a.news_item.length) return err(40114, 'invalid index value');
        else a.news_item.splice(index - 1, 1);
        return ok();
      }
    }
    if (path.startsWith('cgi-bin/comment/'))
      return this.comment(appId, path.slice('cgi-bin/comment/'.length), b());
    return undefined;
  }

  /** a draft's articles as WeChat checks them (1–8, a title, content and a cover; its size limits) */
  private articlesProblem(articles: NewsItem[] | undefined) {
    if (!Array.isArray(articles) || articles.length === 0 || articles.length > 8)
      return err(45008, 'article size out of limit');
    for (const a of articles) {
      if (!a.title || [...a.title].length > 64) return err(45003, 'title size out of limit');
      if ((a.author ?? '').length > 8) return err(45110, 'author size out of limit');
      if ((a.digest ?? '').length > 120) return err(45004, 'description size out of limit');
      const content = a.content ?? '';
      if (!content || content.length >= 20_000 || Buffer.byteLength(content) >= 1024 * 1024)
        return err(45002, 'content size out of limit');
      if (!a.thumb_media_id || !this.materials.has(a.thumb_media_id)) return err(40007, 'invalid media_id');
      // an image the article shows must be WeChat's own (media/uploadimg)
      for (const m of content.matchAll(/<img[^>]+src=["']([^"']+)["']/gi))
        if (!this.images.has(m[1]) && ![...this.materials.values()].some((x) => x.url === m[1]))
          return err(45166, 'invalid content');
    }
    return null;
  }

  /** 图文留言: open, close, list, markelect, unmarkelect, delete, reply/add, reply/delete */
  private comment(appId: string, action: string, b: Record<string, unknown>) {
    if (this.noComment.has(appId)) return err(88000, 'without comment privilege');
    const key = `${b.msg_data_id}:${b.index ?? 0}`;
    const article = [...this.articles.values()].find((a) => String(a.msg_data_id) === String(b.msg_data_id));
    if (!article) return err(88001, 'msg_data is not exists');
    const list = this.comments.get(key) ?? [];
    this.comments.set(key, list);
    const one = () => list.find((c) => c.user_comment_id === Number(b.user_comment_id));
    switch (action) {
      case 'open':
      case 'close':
        return ok();
      case 'list': {
        const begin = Number(b.begin ?? 0);
        const count = Number(b.count ?? 0);
        if (count < 1 || count > 50) return err(40097, 'invalid args');
        const shown = list.filter((c) => [0, c.comment_type].includes(Number(b.type ?? 0)));
        return { errcode: 0, errmsg: 'ok', total: shown.length, comment: shown.slice(begin, begin + count) };
      }
      case 'markelect':
      case 'unmarkelect': {
        const c = one();
        if (!c) return err(88010, 'comment is not exists');
        c.comment_type = action === 'markelect' ? 1 : 0;
        return ok();
      }
      case 'delete': {
        const c = one();
        if (!c) return err(88010, 'comment is not exists');
        list.splice(list.indexOf(c), 1);
        return ok();
      }
      case 'reply/add': {
        const c = one();
        if (!c) return err(88010, 'comment is not exists');
        if (c.reply) return err(88008, 'reply is exists');
        c.reply = { content: String(b.content ?? ''), create_time: now() };
        return ok();
      }
      case 'reply/delete': {
        const c = one();
        if (!c?.reply) return err(88007, 'reply is not exists');
        c.reply = undefined;
        return ok();
      }
      default:
        return undefined;
    }
  }

  /** a follower's comment on a published article (what readers write; tests add them) */
  addComment(msgDataId: number, index: number, openid: string, content: string) {
    const key = `${msgDataId}:${index}`;
    const list = this.comments.get(key) ?? [];
    const c = { user_comment_id: list.length + 1, openid, create_time: now(), content, comment_type: 0 };
    list.push(c);
    this.comments.set(key, list);
    return c;
  }
}
