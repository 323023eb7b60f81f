"""Work at scale (`minors.scale`): in this process and on a Dask cluster."""
