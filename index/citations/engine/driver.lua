-- paperscope's citation driver: one request a line on stdin, one answer a line on stdout.
--
-- A request is a JSON object:
--   csl      the style file's path (an independent CSL style)
--   lang     optional locale ("en-GB"), as a dependent style's default-locale asks
--   csljson  optional CSL-JSON array as text, read by pandoc's own CSL-JSON reader
--   bib      optional BibLaTeX text (entries, @string macros, crossref parents), read by
--            pandoc's own BibLaTeX reader: its mapping to CSL is the one pandoc documents
--   ids      the ids to render; references not named (a crossref parent) are left out
--   format   a pandoc writer ("plain", "markdown", "html")
-- The answer is {"entries": [{"id": ..., "text": ..., "label": "[1]" or absent}, ...]} in the style's order, or
-- {"error": "..."}: a bad style or entry never ends the process.

local function cited_ids(ids)
  local wanted, order = {}, {}
  for _, id in ipairs(ids) do
    if not wanted[id] then
      wanted[id] = true
      table.insert(order, id)
    end
  end
  return wanted, order
end

-- The references in the order of `order`: a style that does not sort (IEEE) numbers them so.
local function references(req, wanted, order)
  local by_id = {}
  local function add(meta)
    for _, ref in ipairs(meta.references or {}) do
      local id = pandoc.utils.stringify(ref.id)
      if wanted[id] and not by_id[id] then by_id[id] = ref end
    end
  end
  if req.csljson then add(pandoc.read(req.csljson, 'csljson').meta) end
  if req.bib then add(pandoc.read(req.bib, 'biblatex').meta) end
  local refs = pandoc.List{}
  for _, id in ipairs(order) do
    if by_id[id] then refs:insert(by_id[id]) end
  end
  return refs
end

-- A numeric style's entry is two blocks (the label and the text); they are one line.
-- The label is also returned alone, so a bibliography rendered in parts can be renumbered.
local function entry_blocks(entry)
  local left, right
  for _, block in ipairs(entry.content) do
    if block.t == 'Div' and block.classes:includes('csl-left-margin') then left = block end
    if block.t == 'Div' and block.classes:includes('csl-right-inline') then right = block end
  end
  if left and right then
    local inlines = pandoc.utils.blocks_to_inlines(left.content)
    inlines:insert(pandoc.Space())
    inlines:extend(pandoc.utils.blocks_to_inlines(right.content))
    return pandoc.Blocks{pandoc.Plain(inlines)}, pandoc.utils.stringify(left.content)
  end
  return entry.content, nil
end

local function render(req)
  local wanted, order = cited_ids(req.ids or {})
  local nocite = pandoc.Inlines{}
  for _, id in ipairs(order) do
    nocite:insert(pandoc.Cite({pandoc.Str('@' .. id)}, {pandoc.Citation(id, 'NormalCitation')}))
  end
  local meta = {references = references(req, wanted, order), nocite = nocite, csl = req.csl,
                ['suppress-bibliography'] = false}
  if req.lang then meta.lang = req.lang end
  local doc = pandoc.utils.citeproc(pandoc.Pandoc({}, meta))
  local options = {wrap_text = 'wrap-none'}
  local entries = {}
  for _, block in ipairs(doc.blocks) do
    if block.t == 'Div' and block.identifier == 'refs' then
      for _, entry in ipairs(block.content) do
        local blocks, label = entry_blocks(entry)
        local text = pandoc.write(pandoc.Pandoc(blocks), req.format or 'plain', options)
        local id = entry.identifier:gsub('^ref%-', '', 1)
        table.insert(entries, {id = id, text = text, label = label})
      end
    end
  end
  return {entries = entries}
end

for line in io.lines() do
  local ok, answer = pcall(function() return render(pandoc.json.decode(line, false)) end)
  if not ok then answer = {error = tostring(answer)} end
  io.write(pandoc.json.encode(answer), '\n')
  io.stdout:flush()
end
