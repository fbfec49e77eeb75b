// GFM task list items ("- [ ] todo", "- [x] done") for markdown-it, in one pass over the
// tokens. It writes the HTML @mdit/plugin-tasklist wrote (with label: false, disabled:
// true), which it replaces: that plugin looked for each item's list by scanning back
// through every token before it, so 32,000 items took 11 s. Here the open lists are
// kept on a stack as the pass goes, and each item finds its list on top.
import type MarkdownIt from 'markdown-it'
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs'
import type Token from 'markdown-it/lib/token.mjs'

const CONTAINER_CLASS = 'task-list-container'
const ITEM_CLASS = 'task-list-item'
const CHECKBOX_CLASS = 'task-list-item-checkbox'

function setAttr (token: Token, name: string, value: string): void {
  const at = token.attrIndex(name)
  if (at < 0) token.attrPush([name, value])
  else token.attrs![at] = [name, value]
}

/** "[ ] ", "[x] " or "[X] " (a space or a no-break space after): checked or not; undefined otherwise. */
function taskState (content: string): boolean | undefined {
  if (content.length < 4 || content.charCodeAt(0) !== 0x5b || content.charCodeAt(2) !== 0x5d) return undefined
  const after = content.charCodeAt(3)
  if (after !== 0x20 && after !== 0xa0) return undefined
  const mark = content.charCodeAt(1)
  if (mark === 0x78 || mark === 0x58) return true
  if (mark === 0x20 || mark === 0xa0) return false
  return undefined
}

function taskListRule (state: StateCore): boolean {
  const tokens = state.tokens
  const env = state.env as { tasklistId?: number }
  env.tasklistId ||= 0
  /** Indexes of the lists open at the current token. */
  const lists: number[] = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') {
      lists.push(i)
      continue
    }
    if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') {
      lists.pop()
      continue
    }
    if (token.type !== 'inline' || i < 2 || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue
    const checked = taskState(token.content)
    if (checked === undefined) continue
    token.children ??= []
    const first = token.children[0]
    if (first !== undefined) first.content = first.content.slice(3)
    const checkbox = new state.Token('checkbox_input', 'input', 0)
    checkbox.attrs = [['type', 'checkbox'], ['class', CHECKBOX_CLASS], ['id', `task-item-${env.tasklistId++}`]]
    if (checked) checkbox.attrs.push(['checked', 'checked'])
    checkbox.attrs.push(['disabled', 'disabled'])
    token.children.unshift(checkbox)
    setAttr(tokens[i - 2]!, 'class', ITEM_CLASS)
    const list = lists[lists.length - 1]
    if (list !== undefined) setAttr(tokens[list]!, 'class', CONTAINER_CLASS)
  }
  return true
}

export function taskLists (md: MarkdownIt): void {
  md.core.ruler.after('inline', 'task_list', taskListRule)
}
