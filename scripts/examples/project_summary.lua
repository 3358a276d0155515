-- project_summary: what kind of project this is, at a glance: files per extension, the
-- largest files, and the start of the README.
return jido.tool{
  name = "project_summary",
  description = "Summarizes the project: how many files of each extension, the largest files, "
    .. "and the first lines of the README. Use it first in an unknown repository.",
  params = {
    type = "object",
    properties = {
      readme_lines = {type = "integer", default = 10, minimum = 0, description = "lines of the README to include"},
      largest = {type = "integer", default = 5, minimum = 0, description = "how many of the largest files to list"},
    },
  },
  idempotent = true,
  run = function(args)
    local list, err = jido.list_files{directory = ".", max_depth = 20, max_results = 10000}
    if not list then
      return nil, err
    end
    local byExt, files, readme = {}, {}, nil
    for _, f in ipairs(list.files) do
      if f.type == "file" then
        local ext = f.path:match("%.([%w_]+)$") or "(none)"
        byExt[ext] = (byExt[ext] or 0) + 1
        files[#files + 1] = f
        if not readme and f.path:upper():match("^README") then
          readme = f.path
        end
      end
    end
    local extensions = {}
    for ext, n in pairs(byExt) do
      extensions[#extensions + 1] = {extension = ext, files = n}
    end
    table.sort(extensions, function(a, b)
      if a.files ~= b.files then
        return a.files > b.files
      end
      return a.extension < b.extension
    end)
    table.sort(files, function(a, b)
      if a.size ~= b.size then
        return a.size > b.size
      end
      return a.path < b.path
    end)
    local largest = {}
    for i = 1, math.min(args.largest, #files) do
      largest[i] = {path = files[i].path, size = files[i].size}
    end
    local summary = {files = #files, extensions = extensions, largest = largest, truncated = list.truncated}
    if readme and args.readme_lines > 0 then
      local r = jido.read_file{path = readme, limit = args.readme_lines, line_numbers = false}
      summary.readme = {path = readme, start = r and r.content}
    end
    return summary
  end,
}
