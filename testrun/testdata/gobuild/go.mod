module example.com/buildfail

go 1.22
