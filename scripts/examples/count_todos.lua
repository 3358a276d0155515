-- count_todos: how many TODO, FIXME and XXX markers each file holds, most first.
-- Copy it to .jido/tools/ (project) or ~/.config/jido/tools/ (all projects).
return jido.tool{
  name = "count_todos",
  description = "Counts TODO, FIXME and XXX markers (or the given ones) per file under a directory, "
    .. "most first, with git's ignore rules. Use it to see where unfinished work is.",
  params = {
    type = "object",
    properties = {
      path = {type = "string", default = ".", description = "directory to search, relative to the project root"},
      markers = {type = "array", items = {type = "string"}, description = "markers to count (default: TODO, FIXME, XXX)"},
    },
  },
  idempotent = true,
  run = function(args)
    local markers = {}
    for i, m in ipairs(args.markers or {"TODO", "FIXME", "XXX"}) do
      markers[i] = m:gsub("%p", "\\%0") -- literal text in the regular expression
    end
    local res, err = jido.search{
      query = table.concat(markers, "|"), is_regex = true, case_sensitive = true,
      path = args.path, output_mode = "count", max_results = 1000,
    }
    if not res then
      return nil, err
    end
    local files, total = {}, 0
    for _, c in ipairs(res.counts or {}) do
      files[#files + 1] = {path = c.path, count = c.count}
      total = total + c.count
    end
    table.sort(files, function(a, b)
      if a.count ~= b.count then
        return a.count > b.count
      end
      return a.path < b.path
    end)
    return {total = total, files = files, truncated = res.truncated}
  end,
}
